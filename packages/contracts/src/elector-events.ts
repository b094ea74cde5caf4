import type { Address, Cell } from '@ton/core';
import { decodeElectorMessage } from './elector-messages.js';

/**
 * The `/validators/events` reading of one elector transaction: its inbound message and the messages it sent back.
 * - new stake answered by a return (`0xee6f454c`) → `stake_rejected` with the elector's reason;
 * - new stake otherwise → `stake_accepted`; the elector keeps 1 TON of every stake message (it pays the
 *   `0xf374484c` confirmation it sends when query_id ≠ 0), so the stake is the value less 1 TON;
 * - recover request answered by `0xf96f7324` → `stake_recovered`, the amount being what the response carries;
 *   answered by the error op (nothing to recover) → no event.
 * Anything else → null.
 */

export interface CarriedMessage {
  body: Cell;
  value: bigint;
}

/** What the elector keeps of each stake message. */
export const NEW_STAKE_FEE = 1_000_000_000n;

export type ElectorEvent =
  | {
      type: 'stake_accepted' | 'stake_rejected';
      stakeHolderAddress: Address;
      queryId: bigint;
      /** Accepted: the stake the elector added for the pubkey; rejected: what it returned. */
      amount: bigint;
      validatorPubkey: string;
      adnlAddr: string;
      /** The election the stake was for (`stake_at`). */
      electionId: number;
      maxFactor: number;
      /** The elector's rejection reason (STAKE_REJECT_REASONS); null when accepted. */
      reason: number | null;
    }
  | { type: 'stake_recovered'; stakeHolderAddress: Address; queryId: bigint; amount: bigint };

export function electorEvent(
  stakeHolderAddress: Address,
  inbound: CarriedMessage,
  outbound: readonly CarriedMessage[],
): ElectorEvent | null {
  const request = decodeElectorMessage(inbound.body);
  const answers = outbound.map((m) => ({ message: decodeElectorMessage(m.body), value: m.value }));
  if (request?.type === 'new_stake') {
    const common = {
      stakeHolderAddress,
      queryId: request.queryId,
      validatorPubkey: request.validatorPubkey,
      adnlAddr: request.adnlAddr,
      electionId: request.stakeAt,
      maxFactor: request.maxFactor,
    };
    const rejection = answers.find((a) => a.message?.type === 'stake_rejected');
    if (rejection?.message?.type === 'stake_rejected')
      return { type: 'stake_rejected', ...common, amount: rejection.value, reason: rejection.message.reason };
    return { type: 'stake_accepted', ...common, amount: inbound.value - NEW_STAKE_FEE, reason: null };
  }
  if (request?.type === 'recover_stake') {
    const response = answers.find((a) => a.message?.type === 'recover_stake_response');
    return response ? { type: 'stake_recovered', stakeHolderAddress, queryId: request.queryId, amount: response.value } : null;
  }
  return null;
}
