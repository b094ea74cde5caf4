/** Real mainnet message bodies from the recorded action fixtures (packages/testdata/fixtures/actions). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Cell } from '@ton/core';
import { fixturePath } from '@tongate/testdata';

export const FIXTURES_DIR = fixturePath('actions');

export interface FixtureMessage {
  file: string;
  msgHash: string;
  opcode: number | null;
  body: string;
  cell: Cell;
}

let cache: FixtureMessage[] | undefined;

/** Every message with a body in every fixture, in file order. */
export function fixtureMessages(): FixtureMessage[] {
  if (cache) return cache;
  cache = [];
  for (const file of readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const fixture = JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')) as {
      transactions: { messages: { msg_hash: string; opcode: number | null; body: string | null }[] }[];
    };
    for (const tx of fixture.transactions) {
      for (const m of tx.messages) {
        if (m.body)
          cache.push({
            file,
            msgHash: m.msg_hash,
            opcode: m.opcode === null ? null : m.opcode >>> 0,
            body: m.body,
            cell: Cell.fromBase64(m.body),
          });
      }
    }
  }
  return cache;
}

/** The fixture bodies that carry an opcode (at least one, or the test data moved). */
export function bodiesWithOpcode(opcode: number): FixtureMessage[] {
  const found = fixtureMessages().filter((m) => m.opcode === opcode);
  if (!found.length) throw new Error(`no fixture body with opcode 0x${opcode.toString(16)}`);
  return found;
}
