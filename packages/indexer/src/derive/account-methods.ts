import type { McBlockBatch } from '../collect.js';

type LatestState = McBlockBatch['latestAccountStates'][number];

/** Get-method ids an active account's code defines (the row's contract_methods); empty for any other account. */
export function activeMethodIds(state: LatestState): Set<number> {
  if (state.account_status !== 'active' || !state.contract_methods) return new Set();
  const ids = JSON.parse(state.contract_methods as string) as number[] | null;
  return new Set(Array.isArray(ids) ? ids : []);
}

/** The newest state of each account the block changed (a batch may hold an account more than once). */
export function newestStates(batch: McBlockBatch): LatestState[] {
  return [...new Map(batch.latestAccountStates.map((s) => [s.account, s])).values()];
}
