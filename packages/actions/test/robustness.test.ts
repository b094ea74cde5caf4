import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, listGoldenFixtures, readGoldenFixture, toV3Action, type TraceInput } from '../src/index.js';
import { fixturePath } from '@tongate/testdata';
import { actionValidator } from './spec.js';

// The indexer classifies whatever the chain holds: malformed or truncated bodies must never make it throw, and
// what it returns must still be valid v3.
describe('classification of damaged traces', () => {
  const validate = actionValidator();
  const fixtures = listGoldenFixtures(fixturePath('actions')).map((f) => readGoldenFixture(f));
  // a body that keeps its opcode but loses everything after it, and one with garbage after it
  const damage = [
    (op: number) =>
      beginCell()
        .storeUint(op >>> 0, 32)
        .endCell(),
    (op: number) =>
      beginCell()
        .storeUint(op >>> 0, 32)
        .storeUint(0xdeadbeef, 32)
        .storeRef(beginCell().storeUint(1, 3).endCell())
        .endCell(),
  ];

  for (const [i, damaged] of damage.entries()) {
    it(`never throws and stays valid v3 when every body is damaged (variant ${i + 1})`, () => {
      for (const fixture of fixtures) {
        const input: TraceInput = {
          ...fixture,
          transactions: fixture.transactions.map((tx) => ({
            ...tx,
            messages: tx.messages.map((m) => (m.opcode === null ? m : { ...m, body: damaged(m.opcode).toBoc().toString('base64') })),
          })),
        };
        const actions = classifyTrace(input);
        for (const a of actions)
          expect(validate(toV3Action(a, { includeAccounts: true })), `${fixture.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    });
  }

  it('treats an unreadable BOC as a body it cannot decode', () => {
    const fixture = fixtures[0];
    const input: TraceInput = {
      ...fixture,
      transactions: fixture.transactions.map((tx) => ({
        ...tx,
        messages: tx.messages.map((m) => ({ ...m, body: m.body ? 'not-a-boc' : null })),
      })),
    };
    expect(() => classifyTrace(input)).not.toThrow();
  });
});
