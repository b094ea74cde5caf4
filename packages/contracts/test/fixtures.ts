import { readFileSync } from 'node:fs';
import { Cell } from '@ton/core';
import { fixturePath } from '@tongate/testdata';

/** The recorded mainnet states (packages/testdata/fixtures/accounts). */
const ACCOUNTS = `${fixturePath('accounts')}/`;

export function fixtureCell(path: string): Cell {
  return Cell.fromBase64(readFileSync(ACCOUNTS + path, 'utf8').trim());
}

export function fixtureJson<T = any>(path: string): T {
  return JSON.parse(readFileSync(ACCOUNTS + path, 'utf8')) as T;
}
