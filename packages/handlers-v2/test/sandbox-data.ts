import type { BlockIdExt, ChainTransaction } from '@tongate/chain';
import { Address, beginCell, type Transaction } from '@ton/core';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';

/** Real transactions made on a local @ton/sandbox chain, wrapped as a ChainSource would return them. */

export const FAKE_BLOCK: BlockIdExt = {
  workchain: 0,
  shard: -(2n ** 63n),
  seqno: 1,
  rootHash: Buffer.alloc(32, 1),
  fileHash: Buffer.alloc(32, 2),
};

export function asChainTransaction(tx: Transaction): ChainTransaction {
  const address = new Address(0, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
  return { address, lt: tx.lt, hash: tx.hash(), cell: tx.raw, tx, block: FAKE_BLOCK };
}

export interface CommentTransfer {
  blockchain: Blockchain;
  sender: SandboxContract<TreasuryContract>;
  receiver: SandboxContract<TreasuryContract>;
  /** Every transaction of the transfer, in execution order (sender's, then receiver's). */
  transactions: ChainTransaction[];
}

/** The sender (a wallet v4 treasury) sends 1 TON with the text comment `hello ✓` to the receiver. */
export async function commentTransfer(comment = 'hello ✓'): Promise<CommentTransfer> {
  const blockchain = await Blockchain.create();
  const sender = await blockchain.treasury('sender');
  const receiver = await blockchain.treasury('receiver');
  const body = beginCell().storeUint(0, 32).storeStringTail(comment).endCell();
  const result = await sender.send({ to: receiver.address, value: 1_000_000_000n, body });
  return { blockchain, sender, receiver, transactions: result.transactions.map(asChainTransaction) };
}
