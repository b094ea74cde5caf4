import { Address, beginCell, type Builder, type Cell, type Slice } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';

/** Runs recorded contracts in the sandbox so that decoders can be checked against what the contract itself does. */

export const ELECTOR_ADDRESS = Address.parseRaw('-1:' + '3'.repeat(64));

/** A dictionary value kept as the raw slice it was stored as, for patching a recorded state's dictionaries. */
export const RAW_VALUE = {
  parse: (s: Slice): Cell => s.asCell(),
  serialize: (v: Cell, b: Builder) => void b.storeSlice(v.beginParse()),
};

export async function chainWith(
  address: Address,
  code: Cell,
  data: Cell,
  options: { now: number; config?: Cell; balance?: bigint },
): Promise<Blockchain> {
  const chain = await Blockchain.create(options.config ? { config: options.config } : undefined);
  chain.now = options.now;
  await chain.setShardAccount(
    address,
    createShardAccount({ address, code, data, balance: options.balance ?? 10n ** 10n, workchain: address.workChain }),
  );
  return chain;
}

export async function dataOf(chain: Blockchain, address: Address): Promise<Cell> {
  const state = (await chain.getContract(address)).accountState;
  if (state?.type !== 'active' || !state.state.data) throw new Error(`${address.toRawString()} is not active`);
  return state.state.data;
}

/** Delivers an internal message `from` → `to` carrying `value` and `body`; returns the receiver's data afterwards. */
export async function deliver(
  chain: Blockchain,
  from: Address,
  to: Address,
  value: bigint,
  body: Cell = beginCell().endCell(),
): Promise<Cell> {
  await chain.sendMessage({
    info: {
      type: 'internal',
      src: from,
      dest: to,
      value: { coins: value },
      bounce: true,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 0n,
      createdAt: chain.now ?? 0,
    },
    body,
  });
  return dataOf(chain, to);
}
