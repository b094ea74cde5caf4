import { Address, beginCell, comment, internal, storeMessageRelaxed, toNano } from '@ton/core';
import type { SeedSender } from './seed-dns.js';
import { vestingAddWhitelistBody, vestingSendMessageBody, vestingWalletInit, type VestingParams } from './contracts/vesting.js';

export interface VestingSeedSummary extends Required<VestingParams> {
  address: Address;
  /** The transfer the owner made through the wallet to a whitelisted address. */
  relayed: { to: Address; value: bigint };
}

/**
 * A vesting wallet for alice, funded by `funder` (a year, monthly unlocks, no cliff, bob whitelisted at deploy);
 * the funder then whitelists carol, and alice relays a transfer to bob through it.
 */
export async function seedVesting<A>(ctx: SeedSender<A>, funder: A, alice: A, bob: A, carol: A): Promise<VestingSeedSummary> {
  const now = Math.floor(Date.now() / 1000);
  const params: Required<VestingParams> = {
    owner: ctx.address(alice),
    sender: ctx.address(funder),
    startTime: now - 60,
    totalDuration: 365 * 24 * 3600,
    unlockPeriod: 30 * 24 * 3600,
    cliffDuration: 0,
    totalAmount: toNano('50'),
    whitelist: [ctx.address(bob)],
  };
  const wallet = vestingWalletInit(params);
  await ctx.send(funder, [internal({ to: wallet.address, value: params.totalAmount + toNano('1'), bounce: false, init: wallet.init })]);
  await ctx.produceBlock();
  const relayed = { to: ctx.address(bob), value: toNano('2') };
  const message = beginCell()
    .store(storeMessageRelaxed(internal({ to: relayed.to, value: relayed.value, bounce: false, body: comment('vested, for bob') })))
    .endCell();
  await ctx.send(funder, [
    internal({ to: wallet.address, value: toNano('0.05'), bounce: true, body: vestingAddWhitelistBody(ctx.address(carol)) }),
  ]);
  await ctx.send(alice, [internal({ to: wallet.address, value: toNano('0.1'), bounce: true, body: vestingSendMessageBody(message, 3) })]);
  await ctx.produceBlock();
  return { ...params, whitelist: [ctx.address(bob), ctx.address(carol)], address: wallet.address, relayed };
}
