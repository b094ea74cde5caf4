import type { Address, Cell, TupleReader } from '@ton/core';
import { decodeExactly } from './cells.js';

/**
 * Single-nominator pool v1.0 / v1.1 (`orbs-network/single-nominator`, as mytonctrl deploys it): one owner stakes
 * through one validator. Its data is only the two roles; the whole pool balance is the owner's stake.
 * `get_pool_data` answers a tuple shaped like the TON Foundation pool's (for the recorded pool: state 2, one nominator,
 * zeros), for tools written for those pools; since the data holds only the roles, it carries no pool accounting, so
 * it is not decoded here.
 */

export interface SingleNominatorRoles {
  owner: Address;
  validator: Address;
}

/** Data: `owner_address:MsgAddressInt validator_address:MsgAddressInt`. */
export function decodeSingleNominatorData(data: Cell): SingleNominatorRoles {
  return decodeExactly(data, 'single-nominator pool data', (s) => ({ owner: s.loadAddress(), validator: s.loadAddress() }));
}

/** `get_roles` get-method result: `(owner, validator)`. */
export function readSingleNominatorRoles(stack: TupleReader): SingleNominatorRoles {
  return { owner: stack.readAddress(), validator: stack.readAddress() };
}
