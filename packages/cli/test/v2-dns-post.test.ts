/**
 * The v2 operations of toncenter's 2.1 line over real HTTP against the composed service, on both networks, with
 * response validation on: dnsResolve through the devnet's root resolver (config param 4), the `.ton` collection and
 * the seeded items; getShardAccountCell read back with @ton/core; and the POST form of every read operation,
 * which must answer exactly as its GET form does.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, beginCell, Cell, loadShardAccount } from '@ton/core';
import { createHash } from 'node:crypto';
import { v2Routes } from '@tongate/stubs';
import type { Devnet, SeedSummary } from '@tongate/devnet';
import { useKeyedGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });
const SHARD = '-9223372036854775808';
type Params = Record<string, string | number | boolean | string[]>;
type Envelope = { ok: boolean; result: any; error?: string; code?: number; '@extra'?: string };

const category = (name: string) => createHash('sha256').update(name).digest('base64');
// Record addresses as tonlib writes them: bounceable, url-safe, no testnet flag.
const tonlibForm = (a: Address) => a.toString({ urlSafe: true, bounceable: true, testOnly: false });

describe.each(['mainnet', 'testnet'] as const)('API v2 2.1 operations on %s', (network) => {
  let devnet: Devnet;
  let seed: SeedSummary;
  const url = (method: string) => `http://127.0.0.1:${suite.service.ports[network]}/api/v2/${method}`;
  const headers = () => ({ 'X-API-Key': suite.keys[network] });

  async function get(method: string, params: Params = {}): Promise<{ status: number; body: Envelope }> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, String(item));
    const res = await fetch(`${url(method)}?${qs}`, { headers: headers() });
    return { status: res.status, body: (await res.json()) as Envelope };
  }
  async function post(method: string, body: unknown): Promise<{ status: number; body: Envelope }> {
    const res = await fetch(url(method), {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  }
  async function ok(call: Promise<{ status: number; body: Envelope }>): Promise<any> {
    const { status, body } = await call;
    if (status !== 200) throw new Error(`expected 200, got ${status}: ${JSON.stringify(body)}`);
    return body.result;
  }
  /** The record a DNS item's own `dnsresolve` gives for a category, as the item holds it. */
  async function itemRecord(item: Address, name: string): Promise<Cell | null> {
    const r = await devnet.runGetMethod(item, 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
      { type: 'int', value: BigInt('0x' + createHash('sha256').update(name).digest('hex')) },
    ]);
    const value = r.stack[1];
    return value?.type === 'cell' ? value.cell : null;
  }

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    seed = await devnet.seed();
  });

  describe('dnsResolve', () => {
    it('resolves each seeded domain from the root to its wallet record and next resolver, as its item holds them', async () => {
      expect(seed.dns.items.length).toBeGreaterThan(0);
      for (const item of seed.dns.items) {
        const resolved = await ok(get('dnsResolve', { name: item.domain, ttl: 5 }));
        expect(resolved['@type']).toBe('dns.resolved');
        const byCategory = new Map<string, any>(resolved.entries.map((e: any) => [e.category, e]));
        // The item's records, read from the item itself: the wallet record names the seeded wallet.
        const walletRecord = (await itemRecord(item.address, 'wallet'))!.beginParse();
        expect(walletRecord.loadUint(16)).toBe(0x9fd3);
        const wallet = walletRecord.loadAddress();
        expect(wallet.equals(item.wallet!)).toBe(true);
        expect(byCategory.get(category('wallet'))).toEqual({
          '@type': 'dns.entry',
          name: '',
          category: category('wallet'),
          entry: { '@type': 'dns.entryDataSmcAddress', smc_address: { '@type': 'accountAddress', account_address: tonlibForm(wallet) } },
        });
        const next = await itemRecord(item.address, 'dns_next_resolver');
        if (item.nextResolver) {
          const s = next!.beginParse();
          s.skip(16);
          expect(s.loadAddress().equals(item.nextResolver)).toBe(true);
          expect(byCategory.get(category('dns_next_resolver'))?.entry).toEqual({
            '@type': 'dns.entryDataNextResolver',
            resolver: { '@type': 'accountAddress', account_address: tonlibForm(item.nextResolver) },
          });
        } else {
          expect(next).toBeNull();
        }
        if (item.storageBagId)
          expect(byCategory.get(category('storage'))?.entry).toEqual({
            '@type': 'dns.entryDataStorageAddress',
            bag_id: item.storageBagId.toUpperCase(),
          });
        if (item.siteAdnl) expect(byCategory.get(category('site'))?.entry['@type']).toBe('dns.entryDataAdnlAddress');
      }
      const withNext = seed.dns.items.find((i) => i.nextResolver);
      expect(withNext, 'the seed makes a domain with a next-resolver record').toBeDefined();
    });

    it('stops where ttl says: the root answers with the .ton collection, the collection with the item', async () => {
      const [item] = seed.dns.items;
      const label = item.domain.replace(/\.ton$/, '');
      const root = await ok(get('dnsResolve', { name: item.domain }));
      expect(root.entries).toEqual([
        {
          '@type': 'dns.entry',
          name: 'ton',
          category: category('dns_next_resolver'),
          entry: {
            '@type': 'dns.entryDataNextResolver',
            resolver: { '@type': 'accountAddress', account_address: tonlibForm(seed.dns.collection) },
          },
        },
      ]);
      const collection = await ok(get('dnsResolve', { name: item.domain, ttl: 1 }));
      expect(collection.entries).toEqual([
        {
          '@type': 'dns.entry',
          name: `${label}.`,
          category: category('dns_next_resolver'),
          entry: {
            '@type': 'dns.entryDataNextResolver',
            resolver: { '@type': 'accountAddress', account_address: tonlibForm(item.address) },
          },
        },
      ]);
      // From the collection (an explicit resolver), one category, by name or by its hash in hex.
      const fromCollection = await ok(
        get('dnsResolve', { address: seed.dns.collection.toString(), name: label, ttl: 1, category: 'wallet' }),
      );
      expect(fromCollection.entries).toHaveLength(1);
      expect(fromCollection.entries[0].entry.smc_address.account_address).toBe(tonlibForm(item.wallet!));
      const hex = createHash('sha256').update('wallet').digest('hex');
      expect(await ok(get('dnsResolve', { address: seed.dns.collection.toString(), name: label, ttl: 1, category: hex }))).toEqual(
        fromCollection,
      );
      // A name nobody registered under a zone the root does not know resolves to nothing.
      expect((await ok(get('dnsResolve', { name: 'example.nothing', ttl: 3 }))).entries).toEqual([]);
    });

    it('at an older masterchain block, through JSON-RPC, and refuses what is not a resolver with a 4xx', async () => {
      const [item] = seed.dns.items;
      const last = (await ok(get('getMasterchainInfo'))).last.seqno as number;
      const now = await ok(get('dnsResolve', { name: item.domain, ttl: 5, seqno: last }));
      expect(await ok(get('dnsResolve', { name: item.domain, ttl: 5 }))).toEqual(now);
      const rpc = await fetch(url('jsonRPC'), {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'dnsResolve', params: { name: item.domain, ttl: 5 } }),
      });
      expect(((await rpc.json()) as Envelope).result).toEqual(now);
      // Before the seed, the domain's item did not exist: the collection still points at its address, which
      // cannot answer.
      const before = await get('dnsResolve', { name: item.domain, ttl: 5, seqno: 1 });
      expect(before.status).toBeGreaterThanOrEqual(400);
      expect(before.status).toBeLessThan(500);
      const notResolver = await get('dnsResolve', { address: devnet.faucet.address.toString(), name: 'x' });
      expect(notResolver.status).toBe(409);
      expect(notResolver.body.error).toMatch(/dnsresolve/);
      expect((await get('dnsResolve', { name: 'a'.repeat(127) })).status).toBe(422);
      expect((await get('dnsResolve', { name: 'x.ton', ttl: -1 })).body.error).toMatch(/ttl/);
    });
  });

  describe('getShardAccountCell', () => {
    it('parses with @ton/core and matches the account state, now and at an older block', async () => {
      const last = (await ok(get('getMasterchainInfo'))).last.seqno as number;
      for (const address of [devnet.faucet.address, seed.jetton.minter, seed.dns.items[0].address]) {
        for (const seqno of [undefined, last - 1]) {
          const params: Params = seqno ? { address: address.toString(), seqno } : { address: address.toString() };
          const cell = await ok(get('getShardAccountCell', params));
          expect(cell['@type']).toBe('tvm.cell');
          const sa = loadShardAccount(Cell.fromBase64(cell.bytes).beginParse());
          const info = await ok(get('getAddressInformation', params));
          const state = sa.account!.storage.state;
          expect(state.type).toBe('active');
          expect(sa.account!.addr.equals(address)).toBe(true);
          expect(sa.account!.storage.balance.coins.toString()).toBe(info.balance);
          expect(sa.lastTransactionLt.toString()).toBe(info.last_transaction_id.lt);
          expect(Buffer.from(sa.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64')).toBe(
            info.last_transaction_id.hash,
          );
          if (state.type === 'active') {
            expect(state.state.code!.toBoc().equals(Cell.fromBase64(info.code).toBoc())).toBe(true);
            expect(state.state.data!.toBoc().equals(Cell.fromBase64(info.data).toBoc())).toBe(true);
          }
        }
      }
      // Through JSON-RPC, the same cell.
      const params = { address: devnet.faucet.address.toString(), seqno: last };
      const rpc = await fetch(url('jsonRPC'), {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'cell', method: 'getShardAccountCell', params }),
      });
      const rpcBody = (await rpc.json()) as Envelope & { id: string };
      expect(rpcBody.id).toBe('cell');
      expect(rpcBody.result).toEqual(await ok(get('getShardAccountCell', params)));
      // An account that does not exist: account_none, no last transaction.
      const nobody = new Address(0, createHash('sha256').update(`nobody ${network}`).digest());
      const none = loadShardAccount(
        Cell.fromBase64((await ok(get('getShardAccountCell', { address: nobody.toRawString() }))).bytes).beginParse(),
      );
      expect(none.account).toBeFalsy();
      expect(none.lastTransactionLt).toBe(0n);
    });
  });

  describe('POST forms', () => {
    /** Parameters for every read operation, as JSON values (numbers stay numbers in the POST body). */
    async function readParams(): Promise<Record<string, Params>> {
      const faucet = devnet.faucet.address.toString();
      const last = (await ok(get('getMasterchainInfo'))).last.seqno as number;
      const shard = (await ok(get('getShards', { seqno: last }))).shards[0];
      const txs = await ok(get('getTransactions', { address: faucet, limit: 5 }));
      const out = txs.find((t: any) => t.out_msgs.length > 0).out_msgs[0];
      const locate = { source: out.source, destination: out.destination, created_lt: out.created_lt };
      const shardBlock = { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno };
      const [item] = seed.dns.items;
      return {
        getAddressInformation: { address: faucet },
        getExtendedAddressInformation: { address: faucet, seqno: last },
        getWalletInformation: { address: faucet },
        getAddressBalance: { address: faucet },
        getAddressState: { address: faucet },
        getTokenData: { address: seed.jetton.minter.toString() },
        getShardAccountCell: { address: faucet, seqno: last },
        dnsResolve: { name: item.domain, ttl: 5 },
        getMasterchainInfo: {},
        getMasterchainBlockSignatures: { seqno: last },
        getShardBlockProof: { ...shardBlock, from_seqno: last },
        getConsensusBlock: {},
        lookupBlock: { workchain: -1, shard: SHARD, seqno: last },
        getShards: { seqno: last },
        shards: { seqno: last },
        getBlockHeader: { workchain: -1, shard: SHARD, seqno: last },
        getOutMsgQueueSize: {},
        getBlockTransactions: { ...shardBlock, count: 3 },
        getBlockTransactionsExt: { ...shardBlock, count: 3 },
        getTransactions: { address: faucet, limit: 3, to_lt: '0', archival: true },
        getTransactionsStd: { address: faucet, limit: 3 },
        tryLocateTx: locate,
        tryLocateResultTx: locate,
        tryLocateSourceTx: locate,
        detectAddress: { address: faucet },
        detectHash: { hash: txs[0].transaction_id.hash },
        packAddress: { address: devnet.faucet.address.toRawString() },
        unpackAddress: { address: faucet },
        getConfigParam: { config_id: 4, seqno: last },
        getConfigAll: { seqno: last },
        getLibraries: { libraries: [createHash('sha256').update('no such library').digest('hex')] },
      };
    }

    it('say the same X-API-Version as the GET forms', async () => {
      const viaGet = await fetch(`${url('getMasterchainInfo')}`, { headers: headers() });
      const viaPost = await fetch(url('getMasterchainInfo'), {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: '{}',
      });
      expect(viaPost.status).toBe(200);
      expect(viaGet.headers.get('x-api-version')).toMatch(/^2\.2\.\d+$/);
      expect(viaPost.headers.get('x-api-version')).toBe(viaGet.headers.get('x-api-version'));
    });

    it('every read operation answers its POST form with its GET form reply', async () => {
      const params = await readParams();
      const postForms = v2Routes.filter((r) => r.method === 'post' && r.operationId.endsWith('Post'));
      expect(postForms.length).toBeGreaterThanOrEqual(30);
      for (const route of postForms) {
        const name = route.operationId.slice(0, -'Post'.length);
        expect(route.path).toBe(`/${name}`);
        expect(params[name], `parameters for ${name}`).toBeDefined();
        const viaGet = await get(name, params[name]);
        const viaPost = await post(name, params[name]);
        expect(viaGet.status, `${name}: ${JSON.stringify(viaGet.body)}`).toBe(200);
        expect(viaPost.status, `${name} POST: ${JSON.stringify(viaPost.body)}`).toBe(200);
        const strip = ({ '@extra': _extra, ...rest }: Envelope) => rest;
        if (name === 'getConsensusBlock') {
          // Its timestamp is the time of the request.
          expect(Math.abs(viaPost.body.result.timestamp - viaGet.body.result.timestamp)).toBeLessThanOrEqual(2);
          viaPost.body.result.timestamp = viaGet.body.result.timestamp;
        }
        expect(strip(viaPost.body), name).toEqual(strip(viaGet.body));
      }
    });

    it('takes numbers as strings and 64-bit values as numbers, as toncenter does; refuses what the GET form refuses', async () => {
      const last = (await ok(get('getMasterchainInfo'))).last.seqno as number;
      expect(await ok(post('lookupBlock', { workchain: '-1', shard: SHARD, seqno: String(last) }))).toEqual(
        await ok(get('lookupBlock', { workchain: -1, shard: SHARD, seqno: last })),
      );
      expect(await ok(post('getTransactions', { address: devnet.faucet.address.toString(), limit: 2, to_lt: 0 }))).toEqual(
        await ok(get('getTransactions', { address: devnet.faucet.address.toString(), limit: 2 })),
      );
      const missing = await post('getAddressInformation', {});
      expect(missing.status).toBe(422);
      expect(missing.body.error).toMatch(/address/);
      const unknown = await post('getAddressBalance', { address: devnet.faucet.address.toString(), bogus: 1 });
      expect(unknown.status).toBe(422);
      expect(unknown.body.error).toMatch(/bogus/);
      const badSeqno = await post('getAddressState', { address: devnet.faucet.address.toString(), seqno: 0 });
      expect(badSeqno.status).toBe(422);
      expect(badSeqno.body.error).toMatch(/seqno/);
    });
  });
});
