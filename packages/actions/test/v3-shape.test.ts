import { describe, expect, it } from 'vitest';
import {
  classifyTrace,
  expandSupportedActionTypes,
  listGoldenFixtures,
  readGoldenFixture,
  toV3Action,
  visibleActions,
  type ClassifiedAction,
} from '../src/index.js';
import { fixturePath } from '@tongate/testdata';
import { actionValidator } from './spec.js';

describe('v3 action objects', () => {
  const validate = actionValidator();
  const all = listGoldenFixtures(fixturePath('actions')).flatMap((f) => classifyTrace(readGoldenFixture(f)));

  it('classifies some action from every fixture', () => {
    expect(all.length).toBeGreaterThan(61);
  });

  it('every produced action validates against the spec Action schema', () => {
    const invalid = all
      .map((a) => ({ a, v3: toV3Action(a, { includeAccounts: true }) }))
      .filter(({ v3 }) => !validate(v3))
      .map(({ a }) => `${a.type} ${a.action_id}: ${JSON.stringify(validate.errors)}`);
    expect(invalid).toEqual([]);
  });

  it('maps generic columns to the type-specific names and amounts to decimal strings', () => {
    const transfer = all.find((a) => a.type === 'jetton_transfer')!;
    const v3 = toV3Action(transfer);
    expect(v3.details?.sender).toBe(transfer.source);
    expect(v3.details?.sender_jetton_wallet).toBe(transfer.source_secondary);
    expect(v3.details?.amount).toBe(String(transfer.amount));
    expect(v3.transactions).toEqual(transfer.tx_hashes);
    expect(v3.accounts).toBeUndefined();
  });

  it('reports a transfer with extra currencies as extra_currency_transfer and opcodes as 0x%08x', () => {
    const base = all.find((a) => a.type === 'ton_transfer')!;
    expect(toV3Action({ ...base, value_extra_currencies: { '100': '5' } }).type).toBe('extra_currency_transfer');
    const call = { ...base, type: 'call_contract', opcode: 0x0f8a7ea5 } as ClassifiedAction;
    expect(toV3Action(call).details?.opcode).toBe('0x0f8a7ea5');
  });
});

describe('supported_action_types', () => {
  const parent = { type: 'nft_purchase', ancestor_type: null };
  const child = { type: 'nft_transfer', ancestor_type: ['nft_purchase'] };

  it('defaults to latest, always includes v1 and expands shortcuts', () => {
    const latest = expandSupportedActionTypes(undefined);
    expect(latest.has('cocoon_worker_payout')).toBe(true);
    expect(latest.has('tgbtc_mint')).toBe(false);
    const v1 = expandSupportedActionTypes(['v1']);
    expect(v1.has('jetton_swap')).toBe(true);
    expect(v1.has('nft_purchase')).toBe(false);
    expect(expandSupportedActionTypes(['tgbtc']).has('tgbtc_burn_fallback')).toBe(true);
  });

  it('lets the X-Actions-Version header override the parameter', () => {
    expect(expandSupportedActionTypes(['v1'], 'v3').has('nft_purchase')).toBe(true);
  });

  it('shows the parent and hides its nested action when the parent type is supported, else the other way round', () => {
    expect(visibleActions([parent, child], expandSupportedActionTypes(['v3']))).toEqual([parent]);
    expect(visibleActions([parent, child], expandSupportedActionTypes(['v1']))).toEqual([child]);
  });
});
