import { internal, toNano, type Address, type MessageRelaxed } from '@ton/core';
import type { DevnetValidator } from './validator-operator.js';

export interface ValidatorsSeedSummary {
  elector: Address;
  /** The devnet's validators and their stake holder wallets (masterchain), which stake in every election from now on. */
  validators: { validatorPubkey: string; stakeHolder: Address; stake: bigint }[];
}

export interface ValidatorsSeedContext {
  /** Sends messages from the faucet. */
  fromFaucet(messages: MessageRelaxed[]): Promise<void>;
  produceBlock(): Promise<unknown>;
  /** Starts the validator operator, with its complaint per set (idempotent); null when the chain has no elector. */
  startValidators(): { elector: Address; validators: DevnetValidator[] } | null;
}

/** What each validator wallet gets: enough for many elections' stakes and fees (stakes come back with bonuses). */
const VALIDATOR_WALLET_FUNDING = toNano('1000000');

/**
 * Funds the devnet validators' stake holder wallets from the faucet and starts the operator that stakes them in every
 * election and recovers their stakes, so the elector runs full cycles (see elector.ts for the timing). The operator
 * also files one complaint against a devnet validator of every set it elects and has the validators vote it through,
 * so the elector's complaint path (registration, votes, fine) runs too.
 */
export async function seedValidators(ctx: ValidatorsSeedContext): Promise<ValidatorsSeedSummary | null> {
  const started = ctx.startValidators();
  if (!started) return null;
  await ctx.fromFaucet(
    started.validators.map((v) =>
      internal({ to: v.wallet.address, value: VALIDATOR_WALLET_FUNDING, bounce: false, body: 'devnet validator stake holder' }),
    ),
  );
  await ctx.produceBlock();
  return {
    elector: started.elector,
    validators: started.validators.map((v) => ({
      validatorPubkey: v.signer.publicKey.toString('hex'),
      stakeHolder: v.wallet.address,
      stake: v.stake,
    })),
  };
}
