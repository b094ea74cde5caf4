import { comment, internal, toNano, type Address } from '@ton/core';
import type { SeedSender } from './seed-dns.js';
import { multisigApproveBody, multisigInit, multisigNewOrderBody, multisigOrder, multisigOrderAddress } from './contracts/multisig.js';

export interface MultisigSeedSummary {
  address: Address;
  signers: Address[];
  proposers: Address[];
  threshold: number;
  /** Order 0: created and approved by alice, approved by bob, executed (pays `pays.to`). Order 1: proposed by carol, pending. */
  orders: { seqno: bigint; address: Address; executed: boolean }[];
  pays: { to: Address; value: bigint };
}

/**
 * A 2-of-2 multisig (signers alice and bob, proposer carol) funded by `funder`: alice creates an order paying carol
 * and approves it on creation, bob approves it and the multisig executes it; carol proposes a second order that
 * stays pending.
 */
export async function seedMultisig<A>(ctx: SeedSender<A>, funder: A, alice: A, bob: A, carol: A): Promise<MultisigSeedSummary> {
  const signers = [ctx.address(alice), ctx.address(bob)];
  const proposers = [ctx.address(carol)];
  const wallet = multisigInit({ signers, proposers, threshold: 2 });
  const expirationDate = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
  const pays = { to: ctx.address(carol), value: toNano('1.5') };
  await ctx.send(funder, [internal({ to: wallet.address, value: toNano('5'), bounce: false, init: wallet.init })]);
  await ctx.produceBlock();
  const first = multisigOrder([
    { message: internal({ to: pays.to, value: pays.value, bounce: false, body: comment('paid by the multisig') }), mode: 3 },
  ]);
  await ctx.send(alice, [
    internal({
      to: wallet.address,
      value: toNano('0.3'),
      bounce: true,
      body: multisigNewOrderBody({ orderSeqno: 0n, bySigner: true, index: 0, expirationDate, order: first }),
    }),
  ]);
  await ctx.produceBlock();
  const second = multisigOrder([
    { message: internal({ to: ctx.address(alice), value: toNano('0.5'), bounce: false, body: comment('proposed by carol') }), mode: 3 },
  ]);
  await ctx.send(bob, [
    internal({ to: multisigOrderAddress(wallet.address, 0n), value: toNano('0.1'), bounce: true, body: multisigApproveBody(1) }),
  ]);
  await ctx.send(carol, [
    internal({
      to: wallet.address,
      value: toNano('0.3'),
      bounce: true,
      body: multisigNewOrderBody({ orderSeqno: 1n, bySigner: false, index: 0, expirationDate, order: second }),
    }),
  ]);
  await ctx.produceBlock();
  return {
    address: wallet.address,
    signers,
    proposers,
    threshold: 2,
    orders: [
      { seqno: 0n, address: multisigOrderAddress(wallet.address, 0n), executed: true },
      { seqno: 1n, address: multisigOrderAddress(wallet.address, 1n), executed: false },
    ],
    pays,
  };
}
