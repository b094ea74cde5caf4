import type { Address, TupleReader } from '@ton/core';
import { hex256 } from './cells.js';

/**
 * Liquid-staking validator controller (tonstakers / ton-blockchain liquid-staking-contract `controller.func`): a
 * masterchain contract that borrows from the liquid pool and stakes in the elector for one validator. Read through
 * `get_validator_controller_data`.
 */

export interface ValidatorControllerData {
  /** The controller's state code, as the contract defines it (not interpreted here). */
  state: number;
  halted: boolean;
  /** Whether the pool's approver allowed this controller to borrow. */
  approved: boolean;
  stakeAmountSent: bigint;
  stakeAt: number;
  savedValidatorSetHash: string;
  validatorSetChangesCount: number;
  validatorSetChangeTime: number;
  stakeHeldFor: number;
  borrowedAmount: bigint;
  borrowingTime: number;
  validator: Address | null;
  pool: Address | null;
  sudoer: Address | null;
}

/** `get_validator_controller_data` → 14 values in the order of ValidatorControllerData. */
export function readValidatorControllerData(stack: TupleReader): ValidatorControllerData {
  return {
    state: stack.readNumber(),
    halted: stack.readBoolean(),
    approved: stack.readBoolean(),
    stakeAmountSent: stack.readBigNumber(),
    stakeAt: stack.readNumber(),
    savedValidatorSetHash: hex256(stack.readBigNumber()),
    validatorSetChangesCount: stack.readNumber(),
    validatorSetChangeTime: stack.readNumber(),
    stakeHeldFor: stack.readNumber(),
    borrowedAmount: stack.readBigNumber(),
    borrowingTime: stack.readNumber(),
    validator: stack.readAddressOpt(),
    pool: stack.readAddressOpt(),
    sudoer: stack.readAddressOpt(),
  };
}
