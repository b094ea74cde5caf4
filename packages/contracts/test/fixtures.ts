import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Cell } from '@ton/core';

/** The recorded mainnet states, read where CI has them: `../shared` beside the repository's root. */
const ACCOUNTS = fileURLToPath(new URL('../../../../shared/fixtures/accounts/', import.meta.url));

export function fixtureCell(path: string): Cell {
  return Cell.fromBase64(readFileSync(ACCOUNTS + path, 'utf8').trim());
}

export function fixtureJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(ACCOUNTS + path, 'utf8')) as T;
}
