/**
 * The action classifier on the devnet's own traffic, over real HTTP against the composed service (devnet → indexer →
 * store → handlers), on both networks: after the seed, every action of every trace is one somebody performed. The
 * seed runs no DEX, lending, bridge, cocoon or tgBTC contract, so no such action may appear; the staking pools'
 * deposits and withdrawals, the bids on the getgems and `.ton` DNS auctions, the sale listings and the DNS record
 * changes come out as what they are, with the contracts' addresses in their details.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { internal, toNano, WalletContractV4, type Address } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** Action types of the protocols the devnet does not run: none may ever be reported there. */
const FOREIGN = /^(evaa_|jvault_|coffee_|layerzero_|cocoon_|tgbtc_|tonco_|jetton_swap$|dex_)/;

/**
 * Every type the seed's operations make, and so every type the devnet may show. A type outside this list is an
 * action nobody performed.
 */
const PERFORMED = new Set([
  'ton_transfer',
  'call_contract',
  'contract_deploy',
  'tick_tock',
  'jetton_mint',
  'jetton_transfer',
  'jetton_burn',
  'nft_mint',
  'nft_transfer',
  'nft_put_on_sale',
  'nft_put_on_auction',
  'nft_purchase',
  'auction_bid',
  'auction_outbid',
  'change_dns',
  'delete_dns',
  'renew_dns',
  'dns_purchase',
  'vesting_add_whitelist',
  'vesting_send_message',
  'multisig_create_order',
  'multisig_approve',
  'multisig_execute',
  'election_deposit',
  'election_recover',
  'stake_deposit',
  'stake_withdrawal_request',
  'stake_withdrawal',
]);

/** Actions any trace may carry beside the operation's own (the wallets' transfers, calls, deployments). */
const BASIC = new Set(['ton_transfer', 'call_contract', 'contract_deploy', 'tick_tock']);
const protocolTypes = (list: any[]) => [...new Set(list.map((a) => a.type).filter((t: string) => !BASIC.has(t)))].sort().join('+');

/**
 * What one trace of the seed (or of the devnet's own background work) may hold, operation by operation: the type set
 * of each trace must be one of these. One external message of the seed is one operation, except where the seed sends
 * several in one wallet message (the bids on both auctions, the two listings).
 */
const TRACE_OPERATIONS = new Set([
  '', // plain transfers, deployments, calls (the validator's op 4 deposit, the pools' deployment)
  'jetton_mint',
  'jetton_transfer',
  'jetton_burn',
  'nft_mint', // the NFT collection's mint, and each .ton domain the .ton collection deploys
  'nft_transfer',
  'nft_put_on_auction+nft_put_on_sale', // the seller hands both items over in one message
  'auction_bid+auction_outbid', // one message bids on the getgems auction and outbids the DNS auction's opener
  'change_dns',
  'vesting_add_whitelist',
  'vesting_send_message',
  'multisig_create_order',
  'multisig_approve+multisig_execute',
  'stake_deposit',
  'stake_withdrawal_request',
  'stake_withdrawal',
  'election_deposit', // the validators and the pools staking in the elections, and recovering their stakes
  'election_recover',
]);

describe.each(['mainnet', 'testnet'] as const)('actions of the devnet traffic on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let seed: SeedSummary;
  /** Every action of every trace after the seed, from /traces?include_actions=true. */
  let actions: any[];
  /** Per complete trace, the set of its protocol action types (`+`-joined, sorted). */
  let traceTypes: string[];
  const api = v3Requests(suite, network);

  const ok = async (path: string, query: Record<string, string>) => {
    const r = await api.get(path, query);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    seed = await devnet.seed();
    await indexer.waitFor(seed.lastBlock.seqno);
    await indexer.waitFor((await devnet.settle()).seqno);
    actions = [];
    traceTypes = [];
    for (let offset = 0; ; offset += 100) {
      const page = await ok('traces', { include_actions: 'true', limit: '100', offset: String(offset), sort: 'asc' });
      for (const t of page.traces) {
        // Background traffic (the pool operators, the elections) may still be in flight: only complete traces are
        // classified, and every complete one must be.
        if (t.trace_info.trace_state !== 'complete') continue;
        expect(t.trace_info.classification_state, t.trace_id).toBe('ok');
        actions.push(...t.actions);
        traceTypes.push(protocolTypes(t.actions));
      }
      if (page.traces.length < 100) break;
    }
  });

  it('no action of a protocol the devnet does not run, and no type nobody performed', () => {
    expect(actions.length).toBeGreaterThan(0);
    if (process.env.DEBUG_ACTIONS) for (const a of actions) console.log(a.type, JSON.stringify(a.details).slice(0, 300));
    const types = [...new Set(actions.map((a) => a.type))].sort();
    expect(types.filter((t) => FOREIGN.test(t))).toEqual([]);
    expect(types.filter((t) => !PERFORMED.has(t))).toEqual([]);
  });

  it('each trace holds the actions of one operation somebody performed', () => {
    expect(traceTypes.length).toBeGreaterThan(0);
    expect(traceTypes.filter((t) => !TRACE_OPERATIONS.has(t))).toEqual([]);
  });

  it('action_type=stake_deposit: the nominator pool deposits (comment "d") and the single-nominator owner top-up', async () => {
    const { pools } = seed;
    const body = await ok('actions', { action_type: 'stake_deposit', limit: '100' });
    const deposits = body.actions.filter((a: any) => a.details.pool === raw(pools.nominatorPool));
    expect(deposits).toHaveLength(pools.deposits.length);
    for (const d of deposits) {
      expect(d.success).toBe(true);
      expect(d.details).toMatchObject({ provider: 'nominator', pool: raw(pools.nominatorPool) });
      expect(pools.nominators.map(raw)).toContain(d.details.stake_holder);
    }
    // `d` deposits carry the whole value sent; the pool keeps 1 TON of it as its fee.
    const credited = deposits.map((d: any) => BigInt(d.details.amount) - 1_000_000_000n).sort();
    expect(credited).toEqual(pools.deposits.map((d) => d.amount).sort());
    const single = body.actions.filter((a: any) => a.details.pool === raw(pools.singleNominatorPool));
    expect(single.map((a: any) => [a.details.stake_holder, a.details.amount, a.details.provider])).toEqual([
      [raw(pools.owner), pools.singleNominatorDeposits.find((d) => d.from.equals(pools.owner))!.amount.toString(), 'single_nominator'],
    ]);
  });

  it('action_type=stake_withdrawal_request and stake_withdrawal: the nominator leaving with "w", the owner withdrawing', async () => {
    const { pools } = seed;
    const requests = (await ok('actions', { action_type: 'stake_withdrawal_request', limit: '100' })).actions;
    expect(
      requests
        .filter((a: any) => a.details.pool === raw(pools.nominatorPool))
        .map((a: any) => [a.details.stake_holder, a.details.provider]),
    ).toEqual([[raw(pools.withdrawn), 'nominator']]);
    const withdrawals = (await ok('actions', { action_type: 'stake_withdrawal', limit: '100' })).actions;
    expect(
      withdrawals
        .filter((a: any) => a.details.pool === raw(pools.singleNominatorPool))
        .map((a: any) => [a.details.stake_holder, a.details.amount]),
    ).toEqual([[raw(pools.owner), pools.singleNominatorWithdrawal.toString()]]);
  });

  it('action_type=auction_bid: the bid on the getgems auction and the bids on the .ton DNS auction', async () => {
    const { auction, dns } = seed.sales;
    const bids = (await ok('actions', { action_type: 'auction_bid', limit: '100' })).actions;
    const getgems = bids.filter((a: any) => a.details.auction === raw(auction.address));
    expect(getgems.map((a: any) => [a.details.bidder, a.details.amount, a.details.nft_item])).toEqual([
      [raw(auction.bidder), auction.bid.toString(), raw(auction.nft)],
    ]);
    const onDns = bids.filter((a: any) => a.details.auction === raw(dns.item));
    expect(onDns.map((a: any) => a.details.bidder)).toContain(raw(dns.bidder));
    expect(onDns.find((a: any) => a.details.bidder === raw(dns.bidder)).details).toMatchObject({
      amount: dns.bid.toString(),
      nft_item: raw(dns.item),
    });
    // The opener's bid goes back to it when the higher one arrives.
    const outbids = (await ok('actions', { action_type: 'auction_outbid', limit: '100' })).actions.filter(
      (a: any) => a.details.auction === raw(dns.item),
    );
    expect(outbids.map((a: any) => [a.details.bidder, a.details.new_bidder])).toEqual([[raw(dns.outbid), raw(dns.bidder)]]);
  });

  it('nft_put_on_sale and nft_put_on_auction: the seller hands the items to the getgems sale and auction', async () => {
    const { sale, auction, collection } = seed.sales;
    const onSale = (await ok('actions', { action_type: 'nft_put_on_sale', limit: '100' })).actions;
    expect(onSale.map((a: any) => a.details)).toEqual([
      expect.objectContaining({
        owner: raw(sale.seller),
        nft_item: raw(sale.nft),
        nft_collection: raw(collection),
        sale_address: raw(sale.address),
        full_price: sale.fullPrice.toString(),
      }),
    ]);
    const onAuction = (await ok('actions', { action_type: 'nft_put_on_auction', limit: '100' })).actions;
    expect(onAuction.map((a: any) => a.details)).toEqual([
      expect.objectContaining({
        owner: raw(auction.seller),
        nft_item: raw(auction.nft),
        nft_collection: raw(collection),
        auction_address: raw(auction.address),
      }),
    ]);
  });

  it("the test's own purchase of the seeded sale is one trace whose only protocol action is the nft_purchase", async () => {
    const { sale } = seed.sales;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      internal({ to: sale.address, value: sale.fullPrice + toNano('1'), bounce: true }),
    ]);
    const { hash } = await devnet.sendMessage(boc);
    await indexer.waitFor((await devnet.settle()).seqno);
    await indexer.waitFor((await devnet.settle()).seqno);
    const traces = (await ok('traces', { msg_hash: hash.toString('hex'), include_actions: 'true' })).traces;
    expect(traces).toHaveLength(1);
    const purchases = traces[0].actions.filter((a: any) => a.type !== 'ton_transfer' && a.type !== 'call_contract');
    expect(purchases.map((a: any) => a.type)).toEqual(['nft_purchase']);
    expect(purchases[0].details).toMatchObject({
      nft_item: raw(sale.nft),
      new_owner: raw(devnet.faucet.address),
      price: sale.fullPrice.toString(),
    });
  });

  it('address book: each contract the seed deploys has the interfaces of the rule (code hash, else get-method subsets)', async () => {
    // Expected by the interface table: a code hash listed there names that interface alone (the wallets, the
    // getgems sale v4 and auction, the multisig and its order); otherwise every interface all of whose get-methods
    // the code defines. The TON Foundation pool (get_pool_data + the tv_pool methods) also meets daolama_vault's only
    // method; the single-nominator pool's get_pool_data and get_roles meet daolama_vault's alone. The vesting wallet
    // has seqno and get_public_key, the methods of the wallets that carry no code hash. DNS items resolve
    // (dnsresolve), are NFT items and editable (get_editor); the `.ton` collection resolves and is a collection. (The
    // root resolver is a genesis account that never has a transaction, so the index holds no state for it.)
    const s = seed;
    const expected: [Address, string[]][] = [
      [s.jetton.minter, ['jetton_master']],
      [s.jetton.wallets[0], ['jetton_wallet']],
      [s.nft.collection, ['nft_collection']],
      [s.nft.item, ['nft_item']],
      [s.dns.collection, ['dns', 'nft_collection']],
      [s.dns.items[0].address, ['dns', 'editable', 'nft_item']],
      [s.vesting.address, ['wallet_v1r2', 'wallet_v2r1', 'wallet_v3r1', 'wallet_v5_beta']],
      [s.multisig.address, ['multisig_v2']],
      [s.multisig.orders[0].address, ['multisig_order_v2']],
      [s.pools.nominatorPool, ['daolama_vault', 'tv_pool']],
      [s.pools.singleNominatorPool, ['daolama_vault']],
      [s.sales.sale.address, ['nft_sale_getgems_v4']],
      [s.sales.auction.address, ['nft_auction_getgems_v3']],
      [s.sales.dns.item, ['dns', 'editable', 'nft_item']],
      [devnet.faucet.address, ['wallet_v4r2']],
      ...s.wallets.map((w): [Address, string[]] => [w.address, [`wallet_${w.version}`]]),
    ];
    const book = (await ok('addressBook', { address: expected.map(([a]) => raw(a)).join(',') })) as Record<
      string,
      { interfaces: string[] }
    >;
    expect(expected.map(([a]) => [raw(a), book[raw(a)]?.interfaces])).toEqual(expected.map(([a, names]) => [raw(a), names]));
  });

  it('action_type=change_dns: the seeded records are set on the .ton items', async () => {
    const changes = (await ok('actions', { action_type: 'change_dns', limit: '100' })).actions;
    expect(changes.length).toBeGreaterThan(0);
    for (const c of changes) expect(c.details.nft_collection).toBe(raw(seed.dns.collection));
  });
});
