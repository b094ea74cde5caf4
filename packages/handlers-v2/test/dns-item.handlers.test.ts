import { randomBytes } from 'node:crypto';
import type { AccountState, ChainSource, GetMethodResult } from '@tongate/chain';
import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, type Cell, contractAddress, Dictionary, type TupleItem } from '@ton/core';
import { Blockchain, createShardAccount, GetMethodError } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { createV2Handlers } from '../src/index.js';
import { FAKE_BLOCK } from './sandbox-data.js';
import { DNS_COLLECTION_CODE, DNS_ITEM_CODE } from './contract-codes.js';
import { call, requestOperations } from './harness.js';

/**
 * A TON DNS collection and one of its items on a @ton/sandbox chain, the item's state set as after a finished auction
 * with records configured (so no week-long auction has to run). Every get-method runs the real contract code.
 */

const blockchain = await Blockchain.create();

/** The two reads getTokenData needs, over the sandbox. */
const chain = {
  async getAccountState(address: Address): Promise<AccountState> {
    const sc = await blockchain.getContract(address);
    const st = sc.accountState;
    return {
      address,
      block: FAKE_BLOCK,
      syncUtime: blockchain.now ?? Math.floor(Date.now() / 1000),
      status: st?.type === 'active' ? 'active' : st?.type === 'frozen' ? 'frozen' : 'nonexist',
      balance: sc.balance,
      extraCurrencies: [],
      code: st?.type === 'active' ? (st.state.code ?? null) : null,
      data: st?.type === 'active' ? (st.state.data ?? null) : null,
      frozenHash: null,
      lastTransaction: null,
      shardAccount: null,
    } as AccountState;
  },
  async runGetMethod(address: Address, method: string | number, stack: TupleItem[]): Promise<GetMethodResult> {
    const base = { block: FAKE_BLOCK, lastTransaction: null };
    try {
      const r = await blockchain.runGetMethod(address, method, stack);
      return { ...base, exitCode: r.exitCode, gasUsed: r.gasUsed, stack: r.stack };
    } catch (e) {
      if (e instanceof GetMethodError) return { ...base, exitCode: e.exitCode, gasUsed: e.gasUsed, stack: [] };
      throw e;
    }
  },
} as unknown as ChainSource;
const ops = requestOperations(createV2Handlers({ chain }));

const collectionData = beginCell()
  .storeRef(beginCell().storeUint(1, 8).storeStringTail('https://dns.example/collection.json').endCell())
  .storeRef(DNS_ITEM_CODE)
  .endCell();
const collection = contractAddress(0, { code: DNS_COLLECTION_CODE, data: collectionData });

const domain = `tongate-${randomBytes(3).toString('hex')}`;
const index = BigInt(`0x${Buffer.from(sha256_sync(domain)).toString('hex')}`);
const owner = new Address(0, randomBytes(32));
const walletTarget = new Address(0, randomBytes(32));
const resolverTarget = new Address(-1, randomBytes(32));
const adnl = randomBytes(32);
const bag = randomBytes(32);
const otherCategory = randomBytes(32);

const key = (name: string) => BigInt(`0x${Buffer.from(sha256_sync(name)).toString('hex')}`);
const text = (s: string) => beginCell().storeUint(0, 8).storeStringTail(s).endCell();
// What the item keeps in its content dictionary: its TEP-64 metadata and, beside it, the DNS records (TEP-81).
const records = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
records.set(key('name'), text(`${domain}.ton`));
records.set(key('description'), text('TON Domain'));
records.set(key('wallet'), beginCell().storeUint(0x9fd3, 16).storeAddress(walletTarget).storeUint(0, 8).endCell());
records.set(key('site'), beginCell().storeUint(0xad01, 16).storeBuffer(adnl).storeUint(0, 8).endCell());
records.set(key('storage'), beginCell().storeUint(0x7473, 16).storeBuffer(bag).endCell());
records.set(key('dns_next_resolver'), beginCell().storeUint(0xba93, 16).storeAddress(resolverTarget).endCell());
records.set(BigInt(`0x${otherCategory.toString('hex')}`), beginCell().storeUint(0x9fd3, 16).storeAddress(owner).storeUint(0, 8).endCell());

function itemState(content: Cell) {
  // index, collection, owner, ^content, ^domain, auction (none), last_fill_up_time.
  return beginCell()
    .storeUint(index, 256)
    .storeAddress(collection)
    .storeAddress(owner)
    .storeRef(content)
    .storeRef(beginCell().storeStringTail(domain).endCell())
    .storeBit(0)
    .storeUint(Math.floor(Date.now() / 1000), 64)
    .endCell();
}
// The item's address comes from its deploy state (index and collection), as the collection computes it.
const item = contractAddress(0, { code: DNS_ITEM_CODE, data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() });
const bareItemIndex = index ^ 1n;
const bareItem = contractAddress(0, {
  code: DNS_ITEM_CODE,
  data: beginCell().storeUint(bareItemIndex, 256).storeAddress(collection).endCell(),
});

await blockchain.setShardAccount(
  collection,
  createShardAccount({ address: collection, code: DNS_COLLECTION_CODE, data: collectionData, balance: 10n ** 9n }),
);
await blockchain.setShardAccount(
  item,
  createShardAccount({
    address: item,
    code: DNS_ITEM_CODE,
    balance: 10n ** 9n,
    data: itemState(beginCell().storeUint(0, 8).storeDict(records).endCell()),
  }),
);
// An item without records: dnsresolve answers a null dictionary.
await blockchain.setShardAccount(
  bareItem,
  createShardAccount({
    address: bareItem,
    code: DNS_ITEM_CODE,
    balance: 10n ** 9n,
    data: beginCell()
      .storeUint(bareItemIndex, 256)
      .storeAddress(collection)
      .storeAddress(owner)
      .storeRef(beginCell().storeUint(0, 8).storeDict(null).endCell())
      .storeRef(beginCell().storeStringTail(domain).endCell())
      .storeBit(0)
      .storeUint(0, 64)
      .endCell(),
  }),
);

describe('getTokenData on a TON DNS item', () => {
  it('content is the domain with its records, decoded by category', async () => {
    const { result } = await call(ops, 'getTokenData', { address: item.toString() }, 'mainnet');
    expect(result['@type']).toBe('ext.tokens.nftItemData');
    expect(result.contract_type).toBe('nft_item');
    expect(result.init).toBe(true);
    expect(result.index).toBe(index.toString());
    expect(result.collection_address).toBe(collection.toString({ urlSafe: true, bounceable: true }));
    expect(result.owner_address).toBe(owner.toString({ urlSafe: true, bounceable: true }));
    const std = (a: Address) => ({ '@type': 'addr_std', workchain_id: a.workChain, address: a.hash.toString('hex') });
    expect(result.content).toEqual({
      domain: `${domain}.ton`,
      data: {
        wallet: { '@type': 'dns_smc_address', smc_addr: std(walletTarget) },
        site: { '@type': 'dns_adnl_address', adnl_addr: adnl.toString('hex') },
        storage: { '@type': 'dns_storage_address', bag_id: bag.toString('hex') },
        dns_next_resolver: { '@type': 'dns_next_resolver', resolver: std(resolverTarget) },
        [otherCategory.toString('hex').toUpperCase()]: { '@type': 'dns_smc_address', smc_addr: std(owner) },
      },
    });
  });

  it('an item without records keeps its TEP-64 content', async () => {
    const { result } = await call(ops, 'getTokenData', { address: bareItem.toRawString() }, 'mainnet');
    expect(result.contract_type).toBe('nft_item');
    expect(result.content).toEqual({ type: 'onchain', data: {} });
  });
});
