import type { Address, Cell } from '@ton/core';
import type { NominatorPoolData, PoolNominator } from './nominator-pool.js';

/**
 * Messages a TON Foundation nominator pool acts on (`pool.fc` recv_internal), and the per-nominator difference
 * between two pool states, from which nominator events are built (deposit, pending deposit activation, reward,
 * withdrawal request, withdrawal).
 * Nominators speak in text comments (op 0): `d` deposit, `w` withdraw, `y<hash>`/`n<hash>` vote on a config
 * proposal. Anything else is `op:uint32 query_id:uint64 …`; the elector's answers are decoded by decodeElectorMessage.
 */

export const NOMINATOR_POOL_OPS = {
  acceptCoins: 1,
  processWithdrawRequests: 2,
  emergencyProcessWithdrawRequest: 3,
  validatorDeposit: 4,
  validatorWithdraw: 5,
  updateValidatorSetHash: 6,
  cleanVotings: 7,
  newStake: 0x4e73744b,
  recoverStake: 0x47657424,
} as const;

export type NominatorPoolMessage =
  | { type: 'deposit' }
  | { type: 'withdraw' }
  | { type: 'vote'; support: boolean; proposalHash: string }
  | {
      type:
        | 'accept_coins'
        | 'process_withdraw_requests'
        | 'emergency_process_withdraw_request'
        | 'validator_deposit'
        | 'update_validator_set_hash'
        | 'clean_votings'
        | 'new_stake'
        | 'recover_stake';
      queryId: bigint;
    }
  | { type: 'validator_withdraw'; queryId: bigint; amount: bigint };

const OP_TYPES: Record<number, Exclude<NominatorPoolMessage, { queryId: bigint; amount: bigint }>['type']> = {
  [NOMINATOR_POOL_OPS.acceptCoins]: 'accept_coins',
  [NOMINATOR_POOL_OPS.processWithdrawRequests]: 'process_withdraw_requests',
  [NOMINATOR_POOL_OPS.emergencyProcessWithdrawRequest]: 'emergency_process_withdraw_request',
  [NOMINATOR_POOL_OPS.validatorDeposit]: 'validator_deposit',
  [NOMINATOR_POOL_OPS.updateValidatorSetHash]: 'update_validator_set_hash',
  [NOMINATOR_POOL_OPS.cleanVotings]: 'clean_votings',
  [NOMINATOR_POOL_OPS.newStake]: 'new_stake',
  [NOMINATOR_POOL_OPS.recoverStake]: 'recover_stake',
};

/** Decodes a body sent to a nominator pool; null for anything the pool does not act on. */
export function decodeNominatorPoolMessage(body: Cell): NominatorPoolMessage | null {
  try {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op === 0) {
      const command = s.loadUint(8);
      if (command === 0x64) return { type: 'deposit' }; // 'd'
      if (command === 0x77) return { type: 'withdraw' }; // 'w'
      if (command === 0x79 || command === 0x6e) {
        // 'y' / 'n' followed by the proposal hash in hex text
        const text = s.loadBuffer(64).toString('latin1');
        if (!/^[0-9a-fA-F]{64}$/.test(text)) return null;
        return { type: 'vote', support: command === 0x79, proposalHash: text.toLowerCase() };
      }
      return null;
    }
    const queryId = s.loadUintBig(64);
    if (op === NOMINATOR_POOL_OPS.validatorWithdraw) return { type: 'validator_withdraw', queryId, amount: s.loadCoins() };
    const type = OP_TYPES[op];
    return type ? ({ type, queryId } as NominatorPoolMessage) : null;
  } catch {
    return null;
  }
}

export interface NominatorPosition {
  amount: bigint;
  pendingDepositAmount: bigint;
  withdrawRequested: boolean;
}

export interface NominatorChange {
  address: Address;
  /** Null when the nominator was not in the pool before (a first deposit). */
  before: NominatorPosition | null;
  /** Null when the nominator left the pool (paid out). */
  after: NominatorPosition | null;
}

const position = (n: PoolNominator): NominatorPosition => ({
  amount: n.amount,
  pendingDepositAmount: n.pendingDepositAmount,
  withdrawRequested: n.withdrawRequested,
});
const same = (a: NominatorPosition | null, b: NominatorPosition | null) =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.amount === b.amount &&
    a.pendingDepositAmount === b.pendingDepositAmount &&
    a.withdrawRequested === b.withdrawRequested);

/** Nominators whose entry differs between two states of the same pool (a transaction's before and after). */
export function nominatorChanges(before: NominatorPoolData, after: NominatorPoolData): NominatorChange[] {
  const entries = new Map<string, { address: Address; before: NominatorPosition | null; after: NominatorPosition | null }>();
  for (const n of before.nominators) entries.set(n.address.hash.toString('hex'), { address: n.address, before: position(n), after: null });
  for (const n of after.nominators) {
    const key = n.address.hash.toString('hex');
    const entry = entries.get(key);
    if (entry) entry.after = position(n);
    else entries.set(key, { address: n.address, before: null, after: position(n) });
  }
  return [...entries.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, e]) => e)
    .filter((e) => !same(e.before, e.after));
}
