import { Address, beginCell, ExternalAddress, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toV3Action, type ClassifiedAction, type TraceInput } from '../src/index.js';
import { actionValidator } from './spec.js';
import { addr, jettonBodies, syntheticTrace } from './synthetic.js';

// Flows no golden fixture covers, on traces built here message by message.
const validate = actionValidator();
const WALLET = addr(1);
const OTHER = addr(2);

function classify(input: TraceInput): ClassifiedAction[] {
  const actions = classifyTrace(input);
  for (const a of actions) {
    const v3 = toV3Action(a, { includeAccounts: true });
    expect(validate(v3), JSON.stringify(validate.errors)).toBe(true);
  }
  return actions;
}

const ofType = (actions: ClassifiedAction[], type: string) => actions.filter((a) => a.type === type);
const v3 = (a: ClassifiedAction) => toV3Action(a).details!;
const ext = { account: WALLET, body: beginCell().storeUint(0x12345678, 32).endCell() };

describe('basic actions', () => {
  it('reads text and encrypted comments of TON transfers, and a plain transfer without one', () => {
    const text = beginCell().storeUint(0, 32).storeStringTail('thanks for lunch').endCell();
    const encrypted = beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.from('0011223344', 'hex')).endCell();
    const actions = classify(
      syntheticTrace([
        ext,
        { account: OTHER, from: 0, body: text, value: 5n },
        { account: addr(3), from: 0, body: encrypted },
        { account: addr(4), from: 0 },
      ]),
    );
    const transfers = ofType(actions, 'ton_transfer');
    expect(transfers).toHaveLength(3);
    expect(v3(transfers[0])).toMatchObject({
      source: WALLET,
      destination: OTHER,
      value: '5',
      comment: 'thanks for lunch',
      encrypted: false,
    });
    expect(v3(transfers[1])).toMatchObject({ comment: Buffer.from('0011223344', 'hex').toString('base64'), encrypted: true });
    expect(v3(transfers[2])).toMatchObject({ comment: null, encrypted: false });
  });

  it('reports calls with their opcode, deployments beside them, bounces not as new transfers, tick-tock', () => {
    const call = beginCell().storeUint(0x0badc0de, 32).storeUint(7, 64).endCell();
    const actions = classify(
      syntheticTrace([
        ext,
        { account: OTHER, from: 0, body: call, deploys: true, aborted: true, exitCode: 33 },
        { account: WALLET, from: 1, bounced: true, body: beginCell().storeUint(0xffffffff, 32).endCell() },
        { account: addr(9, -1), tick: true },
      ]),
    );
    const [callAction] = ofType(actions, 'call_contract');
    expect(v3(callAction)).toMatchObject({ opcode: '0x0badc0de', source: WALLET, destination: OTHER });
    expect(callAction.success).toBe(false);
    expect(ofType(actions, 'contract_deploy')).toHaveLength(1);
    expect(ofType(actions, 'ton_transfer')).toHaveLength(0);
    expect(ofType(actions, 'tick_tock')).toHaveLength(1);
  });
});

describe('jettons and NFTs', () => {
  it('classifies a jetton burn: owner, wallet, master, amount', () => {
    const wallet = addr(10);
    const master = addr(11);
    const burn = beginCell().storeUint(0x595f07bc, 32).storeUint(1, 64).storeCoins(777n).storeAddress(null).storeBit(false).endCell();
    const notification = beginCell()
      .storeUint(0x7bdd97de, 32)
      .storeUint(1, 64)
      .storeCoins(777n)
      .storeAddress(Address.parseRaw(WALLET))
      .endCell();
    const actions = classify(
      syntheticTrace(
        [
          ext,
          { account: wallet, from: 0, body: burn },
          { account: master, from: 1, body: notification },
          { account: WALLET, from: 2, body: beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell() },
        ],
        { [wallet]: { JettonWallet: { owner: WALLET, jetton: master } } },
      ),
    );
    const [action] = ofType(actions, 'jetton_burn');
    expect(v3(action)).toEqual({ owner: WALLET, owner_jetton_wallet: wallet, asset: master, amount: '777' });
    expect(action.success).toBe(true);
    expect(ofType(actions, 'call_contract')).toHaveLength(0);
  });

  it('classifies an NFT mint by its collection and a bid on a getgems auction', () => {
    const collection = addr(20);
    const item = addr(21);
    const auction = addr(22);
    const mint = beginCell().storeUint(1, 32).storeUint(0, 64).storeUint(5, 64).endCell();
    const actions = classify(
      syntheticTrace(
        [
          ext,
          { account: collection, from: 0, body: mint },
          { account: item, from: 1, body: beginCell().storeAddress(Address.parseRaw(WALLET)).endCell(), deploys: true },
          { account: auction, from: 0, value: 3_000_000_000n },
        ],
        {
          [item]: { NftItem: { collection_address: collection, index: 5 } },
          [auction]: { NftAuction: { nft_addr: item, last_bid: 3_000_000_000 } },
        },
      ),
    );
    expect(v3(ofType(actions, 'nft_mint')[0])).toEqual({ owner: WALLET, nft_collection: collection, nft_item: item, nft_item_index: '5' });
    expect(v3(ofType(actions, 'auction_bid')[0])).toMatchObject({
      bidder: WALLET,
      auction,
      amount: '3000000000',
      nft_item: item,
      nft_collection: collection,
      nft_item_index: '5',
    });
  });
});

describe('NFT discovery', () => {
  it('reads the index and collection an item reports', () => {
    const item = addr(25);
    const collection = addr(26);
    const ask = beginCell().storeUint(0x2fcb26a2, 32).storeUint(1, 64).endCell();
    const report = beginCell()
      .storeUint(0x8b771735, 32)
      .storeUint(1, 64)
      .storeUint(42, 256)
      .storeAddress(Address.parseRaw(collection))
      .endCell();
    const actions = classify(syntheticTrace([ext, { account: item, from: 0, body: ask }, { account: WALLET, from: 1, body: report }]));
    expect(v3(ofType(actions, 'nft_discovery')[0])).toEqual({
      source: WALLET,
      nft_item: item,
      nft_collection: collection,
      nft_item_index: '42',
    });
  });
});

describe('elections and DNS', () => {
  const ELECTOR = `-1:${'3'.repeat(64)}`;

  it('classifies a stake sent to the elector and a stake recovered', () => {
    const newStake = beginCell()
      .storeUint(0x4e73744b, 32)
      .storeUint(1, 64)
      .storeUint(0, 256)
      .storeUint(1_700_000_000, 32)
      .storeUint(65536, 32)
      .storeUint(0, 256)
      .storeRef(beginCell().storeBuffer(Buffer.alloc(64)).endCell())
      .endCell();
    const confirmation = beginCell().storeUint(0xf374484c, 32).storeUint(1, 64).storeUint(0, 32).endCell();
    const recover = beginCell().storeUint(0x47657424, 32).storeUint(2, 64).endCell();
    const response = beginCell().storeUint(0xf96f7324, 32).storeUint(2, 64).endCell();
    const actions = classify(
      syntheticTrace([
        ext,
        { account: ELECTOR, from: 0, body: newStake, value: 300_000_000_000n },
        { account: WALLET, from: 1, body: confirmation },
        { account: ELECTOR, from: 0, body: recover },
        { account: WALLET, from: 3, body: response, value: 310_000_000_000n },
      ]),
    );
    expect(v3(ofType(actions, 'election_deposit')[0])).toEqual({ stake_holder: WALLET, amount: '300000000000' });
    expect(ofType(actions, 'election_deposit')[0].success).toBe(true);
    expect(v3(ofType(actions, 'election_recover')[0])).toEqual({ stake_holder: WALLET, amount: '310000000000' });
  });

  it('tells a DNS record change from a deletion and a renewal', () => {
    const item = addr(30);
    const collection = `0:${'B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF'}`;
    const key = BigInt(`0x${'ab'.repeat(32)}`);
    const record = beginCell().storeUint(0x9fd3, 16).storeAddress(Address.parseRaw(OTHER)).storeUint(0, 8).endCell();
    const change = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeUint(key, 256).storeRef(record).endCell();
    const remove = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeUint(key, 256).endCell();
    const renew = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeUint(0, 256).endCell();
    const actions = classify(
      syntheticTrace(
        [ext, { account: item, from: 0, body: change }, { account: item, from: 0, body: remove }, { account: item, from: 0, body: renew }],
        { [item]: { NftItem: { collection_address: collection } } },
      ),
    );
    expect(v3(ofType(actions, 'change_dns')[0])).toMatchObject({
      source: WALLET,
      asset: item,
      nft_collection: collection,
      key: 'ab'.repeat(32),
      value: { sum_type: 'DNSSmcAddress', dns_smc_address: OTHER },
    });
    expect(v3(ofType(actions, 'delete_dns')[0])).toMatchObject({ asset: item, hash: 'ab'.repeat(32) });
    expect(v3(ofType(actions, 'renew_dns')[0])).toEqual({ source: WALLET, asset: item, nft_collection: collection });
  });
});

describe('multisig and vesting', () => {
  const MULTISIG = addr(40);
  const ORDER = addr(41);
  const VESTING = addr(42);
  const order = beginCell().storeUint(0, 1).endCell();

  it('classifies creating, approving (by op and by comment) and executing a multisig order', () => {
    const newOrder = beginCell()
      .storeUint(0xf718510f, 32)
      .storeUint(3, 64)
      .storeUint(7, 256)
      .storeBit(true)
      .storeUint(1, 8)
      .storeUint(1_800_000_000, 48)
      .storeRef(order)
      .endCell();
    const init = beginCell()
      .storeUint(0x9c73fba2, 32)
      .storeUint(3, 64)
      .storeUint(2, 8)
      .storeRef(order)
      .storeUint(1_800_000_000, 48)
      .storeRef(order)
      .storeBit(true)
      .storeUint(1, 8)
      .endCell();
    const approveOp = beginCell().storeUint(0xa762230f, 32).storeUint(4, 64).storeUint(0, 8).endCell();
    const approveText = beginCell().storeUint(0, 32).storeStringTail('approve').endCell();
    const accepted = beginCell().storeUint(0x82609bf6, 32).storeUint(4, 64).endCell();
    const rejected = beginCell().storeUint(0xafaf283e, 32).storeUint(5, 64).storeUint(107, 32).endCell();
    const execute = beginCell()
      .storeUint(0x75097f5d, 32)
      .storeUint(6, 64)
      .storeUint(7, 256)
      .storeUint(1_800_000_000, 48)
      .storeUint(2, 8)
      .storeUint(BigInt(`0x${'cd'.repeat(32)}`), 256)
      .storeRef(order)
      .endCell();
    const actions = classify(
      syntheticTrace([
        ext,
        { account: MULTISIG, from: 0, body: newOrder },
        { account: ORDER, from: 1, body: init, deploys: true },
        { account: ORDER, from: 0, body: approveOp },
        { account: WALLET, from: 3, body: accepted },
        { account: ORDER, from: 0, body: approveText },
        { account: WALLET, from: 5, body: rejected },
        { account: MULTISIG, from: 3, body: execute },
      ]),
    );
    expect(v3(ofType(actions, 'multisig_create_order')[0])).toMatchObject({
      source: WALLET,
      destination: MULTISIG,
      destination_order: ORDER,
      order_seqno: '7',
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 1,
      expiration_date: 1_800_000_000,
    });
    const approvals = ofType(actions, 'multisig_approve');
    expect(approvals.map((a) => v3(a))).toEqual([
      { source: WALLET, destination: ORDER, signer_index: 0, exit_code: 0 },
      { source: WALLET, destination: ORDER, signer_index: null, exit_code: 107 },
    ]);
    expect(approvals.map((a) => a.success)).toEqual([true, false]);
    expect(v3(ofType(actions, 'multisig_execute')[0])).toMatchObject({
      source: ORDER,
      destination: MULTISIG,
      approvals_num: 2,
      signers_hash: 'cd'.repeat(32),
    });
  });

  it('lists the addresses a vesting wallet whitelists', () => {
    const second = beginCell()
      .storeAddress(Address.parseRaw(addr(44)))
      .endCell();
    const body = beginCell()
      .storeUint(0x7258a69b, 32)
      .storeUint(9, 64)
      .storeAddress(Address.parseRaw(addr(43)))
      .storeRef(second)
      .endCell();
    const actions = classify(syntheticTrace([ext, { account: VESTING, from: 0, body }]));
    expect(v3(ofType(actions, 'vesting_add_whitelist')[0])).toEqual({
      source: WALLET,
      vesting: VESTING,
      query_id: '9',
      accounts_added: [addr(43), addr(44)],
    });
  });
});

describe('subscriptions', () => {
  const PLUGIN = addr(50);
  const BENEFICIARY = addr(51);

  it('classifies a subscription payment and an unsubscription', () => {
    const request = beginCell().storeUint(0x706c7567, 32).storeUint(1, 64).storeCoins(2_000_000_000n).storeBit(false).endCell();
    const response = beginCell().storeUint(0xf06c7567, 32).storeUint(1, 64).endCell();
    const payment = beginCell().storeUint(0x73756273, 32).endCell();
    const destruct = beginCell().storeUint(0x64737472, 32).storeUint(2, 64).endCell();
    const actions = classify(
      syntheticTrace([
        { account: PLUGIN, body: beginCell().storeUint(0, 32).endCell() },
        { account: WALLET, from: 0, body: request },
        { account: PLUGIN, from: 1, body: response, value: 2_000_000_000n },
        { account: BENEFICIARY, from: 2, body: payment },
        { account: PLUGIN, from: 1, body: destruct },
        { account: BENEFICIARY, from: 4, body: destruct },
      ]),
    );
    expect(v3(ofType(actions, 'subscribe')[0])).toEqual({
      subscriber: WALLET,
      beneficiary: BENEFICIARY,
      subscription: PLUGIN,
      amount: '2000000000',
    });
    expect(ofType(actions, 'unsubscribe')).toHaveLength(1);
    expect(v3(ofType(actions, 'unsubscribe')[0])).toEqual({
      subscriber: WALLET,
      beneficiary: BENEFICIARY,
      subscription: PLUGIN,
      amount: null,
    });
  });
});

describe('nominator pools', () => {
  const POOL = addr(60);
  const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

  it('reads "d" as a stake deposit and "w" as a withdrawal request paid at once', () => {
    const actions = classify(
      syntheticTrace(
        [
          ext,
          { account: POOL, from: 0, body: comment('d'), value: 10_000_000_000n },
          { account: POOL, from: 0, body: comment('w'), value: 1_000_000_000n },
          { account: WALLET, from: 2, value: 10_500_000_000n },
        ],
        { [POOL]: { NominatorPool: {} } },
      ),
    );
    expect(v3(ofType(actions, 'stake_deposit')[0])).toMatchObject({
      stake_holder: WALLET,
      pool: POOL,
      amount: '10000000000',
      provider: 'nominator',
    });
    const [request] = ofType(actions, 'stake_withdrawal_request');
    expect(v3(request)).toMatchObject({ stake_holder: WALLET, pool: POOL, provider: 'nominator' });
    expect(request.amount).toBe('10500000000');
    expect(ofType(actions, 'ton_transfer')).toHaveLength(0);
  });
});

describe('tonstakers withdrawals', () => {
  const TS_WALLET = addr(70);
  const TS_MASTER = addr(71);
  const POOL = addr(72);
  const burn = beginCell()
    .storeUint(0x595f07bc, 32)
    .storeUint(1, 64)
    .storeCoins(4_000_000_000n)
    .storeAddress(null)
    .storeBit(false)
    .endCell();
  const notification = beginCell()
    .storeUint(0x7bdd97de, 32)
    .storeUint(1, 64)
    .storeCoins(4_000_000_000n)
    .storeAddress(Address.parseRaw(WALLET))
    .endCell();
  const request = beginCell().storeUint(0x319b0cdc, 32).storeUint(1, 64).endCell();
  const interfaces = { [TS_WALLET]: { JettonWallet: { owner: WALLET, jetton: TS_MASTER } } };
  const requested = [
    ext,
    { account: TS_WALLET, from: 0, body: burn },
    { account: TS_MASTER, from: 1, body: notification },
    { account: POOL, from: 2, body: request },
  ];

  it('reports an immediate payout as stake_withdrawal and a delayed one as a request with its NFT', () => {
    const immediate = classify(
      syntheticTrace(
        [
          ...requested,
          { account: addr(73), from: 3, body: beginCell().storeUint(0x0a77535c, 32).storeUint(1, 64).endCell() },
          { account: WALLET, from: 4, value: 4_200_000_000n },
        ],
        interfaces,
      ),
    );
    expect(v3(ofType(immediate, 'stake_withdrawal')[0])).toMatchObject({
      stake_holder: WALLET,
      pool: POOL,
      amount: '4200000000',
      tokens_burnt: '4000000000',
      asset: TS_MASTER,
    });
    const delayed = classify(
      syntheticTrace(
        [
          ...requested,
          { account: addr(74), from: 3, body: beginCell().storeUint(0x1674b0a0, 32).storeUint(1, 64).endCell() },
          { account: addr(75), from: 4, body: beginCell().storeUint(0x132f9a45, 32).endCell(), deploys: true },
        ],
        interfaces,
      ),
    );
    expect(v3(ofType(delayed, 'stake_withdrawal_request')[0])).toMatchObject({
      stake_holder: WALLET,
      pool: POOL,
      payout_nft: addr(75),
      tokens_burnt: '4000000000',
    });
  });
});

const at = (a: string) => Address.parseRaw(a);
const topTypes = (actions: ClassifiedAction[]) =>
  actions
    .filter((a) => !a.ancestor_type)
    .map((a) => a.type)
    .sort();

describe('Telemint item auctions', () => {
  const item = addr(140);
  const collection = addr(141);
  const beneficiary = addr(142);
  const fragment = {
    NftItem: { collection_address: collection, index: 7, content: { uri: 'https://nft.fragment.com/username/alice.json' } },
  };
  const elsewhere = { NftItem: { collection_address: collection, index: 7, content: { uri: 'https://example.org/items/7.json' } } };
  // auction_config: beneficiary_address initial_min_bid:Coins max_bid:Coins min_bid_step:uint8 min_extend_time:uint32 duration:uint32
  const config = beginCell()
    .storeAddress(at(beneficiary))
    .storeCoins(5_000_000_000n)
    .storeCoins(900_000_000_000n)
    .storeUint(5, 8)
    .storeUint(3600, 32)
    .storeUint(86400, 32)
    .endCell();
  const start = beginCell().storeUint(0x487a8e81, 32).storeUint(9, 64).storeRef(config).endCell();
  const cancel = beginCell().storeUint(0x371638ae, 32).storeUint(10, 64).endCell();
  const ok = beginCell().storeUint(0xa37a0983, 32).storeUint(9, 64).endCell();
  const flow = (body: typeof start) => [ext, { account: item, from: 0, body }, { account: WALLET, from: 1, body: ok }];

  it("the owner's teleitem_start_auction#487a8e81 to a Fragment item: its bids from the auction config", () => {
    const actions = classify(syntheticTrace(flow(start), { [item]: fragment }));
    expect(topTypes(actions)).toEqual(['teleitem_start_auction']);
    const [started] = actions;
    expect(started.tx_hashes).toHaveLength(3);
    expect(v3(started)).toMatchObject({
      nft_item: item,
      nft_collection: collection,
      nft_item_index: '7',
      owner: WALLET,
      auction_address: item,
      listing_address: null,
      marketplace_fee_address: beneficiary,
      min_bid: '5000000000',
      max_bid: '900000000000',
    });
  });

  it('teleitem_cancel_auction#371638ae to a Fragment item; both requests are calls at an item that is not Fragment', () => {
    const cancelled = classify(syntheticTrace(flow(cancel), { [item]: fragment }));
    expect(topTypes(cancelled)).toEqual(['teleitem_cancel_auction']);
    expect(v3(cancelled[0])).toMatchObject({ owner: WALLET, auction_address: item, nft_item: item, nft_collection: collection });
    for (const body of [start, cancel]) {
      expect(topTypes(classify(syntheticTrace(flow(body), { [item]: elsewhere })))).toEqual(['call_contract', 'call_contract']);
    }
  });
});

describe('EVAA liquidations', () => {
  const master = addr(150);
  const user = addr(151);
  const borrower = addr(152);
  const collateralId = 0xabcdefn;
  const header = () => beginCell().storeCoins(4).storeMaybeRef(null).storeUint(0, 2);
  const request = beginCell()
    .storeUint(3, 32)
    .storeUint(1, 64)
    .storeAddress(at(borrower))
    .storeAddress(at(WALLET))
    .storeUint(collateralId, 256)
    .storeUint(0, 64)
    .storeUint(0, 2)
    .storeUint(1_000_000n, 64)
    .storeRef(beginCell().storeUint(0, 64).storeRef(beginCell().endCell()).endCell())
    .storeRef(beginCell().endCell())
    .endCell();
  const toUser = header().storeUint(0x31, 32).storeUint(1, 64).endCell();
  const satisfied = beginCell()
    .storeUint(0x311, 32)
    .storeUint(1, 64)
    .storeAddress(at(borrower))
    .storeAddress(at(WALLET))
    .storeUint(0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an, 256)
    .storeRef(
      beginCell()
        .storeInt(-900, 64)
        .storeUint(950_000n, 64)
        .storeUint(0, 64)
        .storeInt(0, 64)
        .storeUint(collateralId, 256)
        .storeInt(-700, 64)
        .storeUint(420_000n, 64)
        .endCell(),
    )
    .endCell();
  const unsatisfied = beginCell()
    .storeUint(0x31f, 32)
    .storeUint(1, 64)
    .storeAddress(at(borrower))
    .storeAddress(at(WALLET))
    .storeUint(1, 256)
    .storeRef(
      beginCell()
        .storeUint(1_000_000n, 64)
        .storeUint(collateralId, 256)
        .storeUint(0, 64)
        .storeUint(0, 64)
        .storeRef(beginCell().endCell())
        .storeUint(0xe003, 32)
        .endCell(),
    )
    .endCell();
  const confirmed = header().storeUint(0x311a, 32).storeUint(1, 64).endCell();

  it('liquidate_master#3 → liquidate_user → satisfied → liquidate_success: the collateral reward and the debt repaid', () => {
    const actions = classify(
      syntheticTrace([
        ext,
        { account: master, from: 0, body: request },
        { account: user, from: 1, body: toUser },
        { account: master, from: 2, body: satisfied },
        { account: user, from: 3, body: confirmed },
      ]),
    );
    expect(topTypes(actions)).toEqual(['evaa_liquidate']);
    expect(actions[0].success).toBe(true);
    expect(v3(actions[0])).toMatchObject({
      source: WALLET,
      borrower,
      borrower_contract: user,
      amount: '420000',
      debt_amount: '950000',
      asset_id: `0x${collateralId.toString(16).padStart(64, '0')}`,
      fail_reason: null,
    });
  });

  it("the user contract's liquidate_unsatisfied#31f names the refusal; op 3 to a contract without the user header is a call", () => {
    const refused = classify(
      syntheticTrace([
        ext,
        { account: master, from: 0, body: request },
        { account: user, from: 1, body: toUser },
        { account: master, from: 2, body: unsatisfied },
      ]),
    );
    expect(topTypes(refused)).toEqual(['evaa_liquidate']);
    expect(refused[0].success).toBe(false);
    expect(v3(refused[0])).toMatchObject({ fail_reason: 'not_liquidatable', amount: '0', debt_amount: '1000000', borrower });
    const bare = beginCell().storeUint(0x31, 32).storeUint(1, 64).endCell();
    const notEvaa = classify(
      syntheticTrace([
        ext,
        { account: master, from: 0, body: request },
        { account: user, from: 1, body: bare },
        { account: master, from: 2, body: unsatisfied },
      ]),
    );
    expect(topTypes(notEvaa)).toEqual(['call_contract', 'call_contract', 'call_contract']);
  });

  // A refusal before any user contract: the TON request bounces (its sender gets 0xffffffff + the request's start),
  // or the master hands the jettons back through its jetton wallet. The master is known as such only by a flow in
  // the same trace that reaches a user contract, as a liquidator's batch of requests to one master shows.
  const bounce = beginCell().storeUint(0xffffffff, 32).storeUint(3, 32).storeUint(1, 64).endCell();
  // each flow is sent by the external request's wallet (step 0); `at` is the index of the flow's first step
  const reachingUser = (at: number) => [
    { account: master, from: 0, body: request },
    { account: user, from: at, body: toUser },
    { account: master, from: at + 1, body: unsatisfied },
  ];
  const refusedTon = (at: number, to = master) => [
    { account: to, from: 0, body: request, aborted: true, exitCode: 0x30f1 },
    { account: WALLET, from: at, bounced: true, body: bounce },
  ];
  const immediate = {
    source: WALLET,
    borrower,
    borrower_contract: null,
    amount: '0',
    debt_amount: '1000000',
    asset_id: `0x${collateralId.toString(16).padStart(64, '0')}`,
    fail_reason: 'immediate_rejection',
  };

  it('a TON liquidation the master refuses bounces: immediate_rejection, the debt offered, no collateral', () => {
    const actions = classify(syntheticTrace([ext, ...reachingUser(1), ...refusedTon(4)]));
    expect(topTypes(actions)).toEqual(['evaa_liquidate', 'evaa_liquidate']);
    const refused = actions.find((a) => v3(a).fail_reason === 'immediate_rejection')!;
    expect(refused.success).toBe(false);
    expect(v3(refused)).toMatchObject(immediate);
    // the request, its bounce and the wallet transaction that sent it
    expect(refused.tx_hashes).toHaveLength(3);
  });

  it('a refused TON liquidation without an EVAA master in the trace, or at another contract, is no EVAA action', () => {
    const alone = classify(syntheticTrace([ext, ...refusedTon(1)]));
    expect(topTypes(alone)).toEqual(['call_contract']);
    const elsewhere = classify(syntheticTrace([ext, ...reachingUser(1), ...refusedTon(4, addr(153))]));
    expect(topTypes(elsewhere)).toEqual(['call_contract', 'evaa_liquidate']);
    expect(elsewhere.find((a) => a.type === 'evaa_liquidate')!.evaa_liquidate_data).toMatchObject({ fail_reason: 'not_liquidatable' });
  });

  // liquidator's jetton wallet → master's jetton wallet → master notified with liquidate_master#3 as the payload
  const liquidatorWallet = addr(154);
  const masterWallet = addr(155);
  const notifyWithRequest = beginCell()
    .storeUint(0x7362d09c, 32)
    .storeUint(1, 64)
    .storeCoins(1_000_000n)
    .storeAddress(at(WALLET))
    .storeBit(1)
    .storeRef(request)
    .endCell();
  const jettonsRefused = (at: number, returnedBy = masterWallet) => [
    { account: liquidatorWallet, from: 0, body: jettonBodies.transfer(1_000_000n, master, WALLET) },
    { account: masterWallet, from: at, body: jettonBodies.internalTransfer(1_000_000n) },
    { account: master, from: at + 1, body: notifyWithRequest },
    { account: returnedBy, from: at + 2, body: jettonBodies.transfer(1_000_000n, WALLET, WALLET) },
    { account: liquidatorWallet, from: at + 3, body: jettonBodies.internalTransfer(1_000_000n) },
  ];

  it('jettons the master hands back through its jetton wallet: immediate_rejection covering both transfers', () => {
    const actions = classify(syntheticTrace([ext, ...reachingUser(1), ...jettonsRefused(4)]));
    expect(topTypes(actions)).toEqual(['evaa_liquidate', 'evaa_liquidate']);
    const refused = actions.find((a) => v3(a).fail_reason === 'immediate_rejection')!;
    expect(refused.success).toBe(false);
    expect(v3(refused)).toMatchObject(immediate);
    expect(refused.accounts).toEqual(expect.arrayContaining([liquidatorWallet, masterWallet, master]));
    // the request's five transactions and the wallet transaction that sent it
    expect(refused.tx_hashes).toHaveLength(6);
  });

  it('jettons handed back by a contract not shown to be an EVAA master, or through another wallet, stay jetton transfers', () => {
    const alone = classify(syntheticTrace([ext, ...jettonsRefused(1)]));
    expect(topTypes(alone)).toEqual(['jetton_transfer', 'jetton_transfer']);
    const otherWallet = classify(syntheticTrace([ext, ...reachingUser(1), ...jettonsRefused(4, addr(156))]));
    expect(topTypes(otherWallet)).toEqual(['evaa_liquidate', 'jetton_transfer', 'jetton_transfer']);
  });
});

describe('cocoon registrations and charges', () => {
  const proxy = addr(160);
  const client = addr(161);
  const root = addr(162);
  const excesses = beginCell().storeUint(0x2565934c, 32).storeUint(5, 64).endCell();
  const clientRequest = beginCell().storeUint(0x65448ff4, 32).storeUint(5, 64).endCell();

  it("a proxy's charge payload: the excesses and its request to the client; without them it is a call", () => {
    const charge = beginCell().storeUint(0xbb63ff93, 32).storeUint(5, 64).storeUint(1234, 64).storeAddress(at(proxy)).endCell();
    const actions = classify(
      syntheticTrace([
        ext,
        { account: proxy, from: 0, body: charge },
        { account: WALLET, from: 1, body: excesses },
        { account: client, from: 1, body: clientRequest, aborted: true, exitCode: 1014 },
      ]),
    );
    expect(topTypes(actions)).toEqual(['cocoon_proxy_charge']);
    expect(actions[0].success).toBe(true);
    expect(v3(actions[0])).toMatchObject({
      source: proxy,
      destination: client,
      query_id: '5',
      new_tokens_used: '1234',
      expected_address: proxy,
    });
    expect(topTypes(classify(syntheticTrace([ext, { account: proxy, from: 0, body: charge }])))).toEqual(['call_contract']);
  });

  it('register_proxy#927c7cb5 answered by the root with excesses', () => {
    const register = beginCell().storeUint(0x927c7cb5, 32).storeUint(6, 64).storeStringTail('proxy info').endCell();
    const actions = classify(
      syntheticTrace([ext, { account: root, from: 0, body: register }, { account: WALLET, from: 1, body: excesses }]),
    );
    expect(topTypes(actions)).toEqual(['cocoon_register_proxy']);
    expect(v3(actions[0])).toMatchObject({ destination: root, query_id: '6' });
    expect(topTypes(classify(syntheticTrace([ext, { account: root, from: 0, body: register }])))).toEqual(['call_contract']);
  });

  it("the owner registering a client and changing its secret hash, each with the client's answer", () => {
    const answered = (body: typeof excesses) =>
      classify(
        syntheticTrace([
          ext,
          { account: client, from: 0, body },
          { account: proxy, from: 1, body: clientRequest, aborted: true, exitCode: 1014 },
          { account: WALLET, from: 1, body: excesses },
        ]),
      );
    const register = beginCell().storeUint(0xc45f9f3b, 32).storeUint(7, 64).storeUint(99, 64).storeAddress(at(WALLET)).endCell();
    const registered = answered(register);
    expect(topTypes(registered)).toEqual(['cocoon_client_register']);
    expect(v3(registered[0])).toMatchObject({ source: WALLET, destination: client, query_id: '7', nonce: 99 });
    const secret = beginCell().storeUint(0xa9357034, 32).storeUint(8, 64).storeUint(0xfeedn, 256).storeAddress(at(WALLET)).endCell();
    const changed = answered(secret);
    expect(topTypes(changed)).toEqual(['cocoon_client_change_secret_hash']);
    expect(v3(changed[0])).toMatchObject({
      source: WALLET,
      destination: client,
      query_id: '8',
      new_secret_hash: 'feed'.padStart(64, '0'),
    });
    expect(topTypes(classify(syntheticTrace([ext, { account: client, from: 0, body: register }])))).toEqual(['call_contract']);
  });
});

describe('tgBTC keys without their whole flow', () => {
  const caller = addr(170);
  const coordinator = addr(171);
  const call = beginCell().storeUint(0x690f357a, 32).storeUint(0, 64).endCell();
  const newKeyLog = beginCell()
    .storeUint(0x27756729, 32)
    .storeCoins(55n)
    .storeUint(0xbeefn, 256)
    .storeAddress(at(addr(172)))
    .endCell();
  const dkg = beginCell().storeUint(0x453443a6, 32).storeUint(1_760_000_123, 64).storeUint(0xbeefn, 256).endCell();
  const pubkey = 'beef'.padStart(64, '0');

  it('a new key announced at the 0x690f357a call without the DKG-completed event is tgbtc_new_key_fallback', () => {
    const actions = classify(
      syntheticTrace([ext, { account: caller, from: 0 }, { account: coordinator, from: 1, body: call, logs: [newKeyLog] }]),
    );
    const [fallback] = ofType(actions, 'tgbtc_new_key_fallback');
    expect(v3(fallback)).toMatchObject({ source: null, coordinator, pubkey, pegout: addr(172), amount: '55' });
    const full = classify(
      syntheticTrace([ext, { account: caller, from: 0, logs: [dkg] }, { account: coordinator, from: 1, body: call, logs: [newKeyLog] }]),
    );
    expect(ofType(full, 'tgbtc_new_key')).toHaveLength(1);
    expect(ofType(full, 'tgbtc_new_key_fallback')).toHaveLength(0);
  });

  it('the DKG-completed event of a call that announced no key is tgbtc_dkg_log_fallback; the event alone is nothing', () => {
    const actions = classify(
      syntheticTrace([
        ext,
        { account: caller, from: 0, logs: [dkg] },
        { account: coordinator, from: 1, body: call, aborted: true, exitCode: 40 },
      ]),
    );
    expect(topTypes(actions)).toEqual(['tgbtc_dkg_log_fallback']);
    expect(v3(actions[0])).toMatchObject({ coordinator: caller, pubkey, timestamp: '1760000123' });
    const alone = classify(syntheticTrace([ext, { account: caller, from: 0, logs: [dkg] }]));
    expect(topTypes(alone).filter((t) => t.startsWith('tgbtc'))).toEqual([]);
  });
});

describe('unknown', () => {
  it('a trace nothing is read from (a request whose wallet sent nothing) is one unknown action keyed by the trace', () => {
    const input = syntheticTrace([{ ...ext, aborted: true }]);
    const actions = classify(input);
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({
      type: 'unknown',
      action_id: input.trace.trace_id,
      tx_hashes: [input.transactions[0].hash],
      accounts: [WALLET],
      success: false,
    });
    expect(toV3Action(actions[0]).type).toBe('unknown');
    expect(classify(syntheticTrace([ext, { account: OTHER, from: 0 }])).map((a) => a.type)).toEqual(['ton_transfer']);
  });

  /** The trace with only its root transaction: what an emulation that stopped at the external request knows. */
  const rootOnly = (input: TraceInput) => ({ ...input, transactions: input.transactions.slice(0, 1) });

  it('a request whose sent messages have no receiving transaction yet is read from those messages, not as unknown', () => {
    const comment = beginCell().storeUint(0, 32).storeStringTail('hi').endCell();
    const call = beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell();
    const actions = classify(
      rootOnly(
        syntheticTrace([ext, { account: OTHER, from: 0, body: comment, value: 7n }, { account: addr(3), from: 0, body: call, value: 9n }]),
      ),
    );
    expect(actions.map((a) => a.type)).toEqual(['ton_transfer', 'call_contract']);
    expect(actions.every((a) => a.success && a.tx_hashes.length === 1)).toBe(true);
    expect(v3(actions[0])).toMatchObject({ source: WALLET, destination: OTHER, value: '7', comment: 'hi' });
    expect(v3(actions[1])).toMatchObject({ source: WALLET, destination: addr(3), value: '9', opcode: '0x12345678' });
    expect(new Set(actions.map((a) => a.action_id)).size).toBe(2);
  });

  it('only the messages without a receiving transaction are rebuilt; a jetton transfer body is a jetton transfer', () => {
    const jettonWallet = addr(4);
    const transfer = jettonBodies.transfer(500n, OTHER, WALLET);
    const full = syntheticTrace([ext, { account: jettonWallet, from: 0, body: transfer }, { account: OTHER, from: 0, value: 3n }]);
    full.interfaces = { [jettonWallet]: { JettonWallet: { address: jettonWallet, owner: WALLET, jetton: addr(5) } } };
    const partial = { ...full, transactions: full.transactions.filter((t) => t.account !== jettonWallet) };
    const actions = classify(partial);
    expect(actions.map((a) => a.type).sort()).toEqual(['jetton_transfer', 'ton_transfer']);
    const jetton = ofType(actions, 'jetton_transfer')[0];
    expect(jetton.success).toBe(true);
    expect(v3(jetton)).toMatchObject({
      sender: WALLET,
      sender_jetton_wallet: jettonWallet,
      receiver: OTHER,
      amount: '500',
      asset: addr(5),
    });
    // the received transfer is the ordinary one, on its own transaction
    expect(ofType(actions, 'ton_transfer')[0].tx_hashes).toContain(partial.transactions[1].hash);
  });
});

describe('coffee staking withdrawals and vaults', () => {
  const position = addr(180);
  const master = addr(181);
  const payer = addr(182);
  const masterWallet = addr(183);
  const userWallet = addr(184);
  const jetton = addr(185);
  const withdraw = (...fields: ((b: ReturnType<typeof beginCell>) => unknown)[]) => {
    const b = beginCell().storeUint(0xcb03bfaf, 32).storeUint(3, 64);
    for (const f of fields) f(b);
    return b.endCell();
  };
  const first = withdraw();
  const second = withdraw(
    (b) => b.storeUint(42, 64),
    (b) => b.storeAddress(at(WALLET)),
    (b) => b.storeCoins(777n),
    (b) => b.storeRef(beginCell().storeAddress(at(masterWallet)).storeCoins(5000n).endCell()),
  );
  const third = withdraw(
    (b) => b.storeAddress(at(masterWallet)),
    (b) => b.storeCoins(5000n),
    (b) => b.storeAddress(at(WALLET)),
  );
  const transfer = beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(3, 64)
    .storeCoins(5000n)
    .storeAddress(at(WALLET))
    .storeAddress(at(WALLET))
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .endCell();
  const internal = beginCell().storeUint(0x178d4519, 32).storeUint(3, 64).storeCoins(5000n).endCell();
  const interfaces = {
    [masterWallet]: { JettonWallet: { owner: payer, jetton } },
    [userWallet]: { JettonWallet: { owner: WALLET, jetton } },
  };
  const steps = (payoutWallet: string) => [
    ext,
    { account: position, from: 0, body: first },
    { account: master, from: 1, body: second },
    { account: payer, from: 2, body: third },
    { account: payoutWallet, from: 3, body: transfer },
    { account: userWallet, from: 4, body: internal },
  ];

  it('the three staking_position_withdraw legs and the payout from the jetton wallet the last leg names', () => {
    const actions = classify(syntheticTrace(steps(masterWallet), interfaces));
    expect(topTypes(actions)).toEqual(['coffee_staking_withdraw']);
    expect(v3(actions[0])).toMatchObject({
      source: WALLET,
      source_jetton_wallet: userWallet,
      pool: master,
      pool_jetton_wallet: masterWallet,
      asset: jetton,
      amount: '5000',
      nft_address: position,
      nft_index: '42',
      points: '777',
    });
    const elsewhere = classify(syntheticTrace(steps(addr(186)), { [addr(186)]: { JettonWallet: { owner: payer, jetton } } }));
    expect(topTypes(elsewhere)).not.toContain('coffee_staking_withdraw');
  });

  it('create_vault#c0ffee06 with the factory deploying the vault; without the deployment it is a call', () => {
    const vault = addr(187);
    // asset jetton$01 chain:uint8 hash:uint256
    const create = beginCell()
      .storeUint(0xc0ffee06, 32)
      .storeUint(4, 64)
      .storeUint(1, 2)
      .storeUint(0, 8)
      .storeBuffer(Buffer.from(jetton.slice(2), 'hex'))
      .endCell();
    const deploy = beginCell().storeUint(0xc0ffee22, 32).storeUint(4, 64).endCell();
    const actions = classify(
      syntheticTrace([ext, { account: addr(188), from: 0, body: create }, { account: vault, from: 1, body: deploy, deploys: true }]),
    );
    expect(topTypes(actions)).toEqual(['coffee_create_vault']);
    expect(v3(actions[0])).toMatchObject({ source: WALLET, vault, asset: jetton, value: null });
    expect(topTypes(classify(syntheticTrace([ext, { account: addr(188), from: 0, body: create }])))).toEqual(['call_contract']);
  });
});

describe('cocoon client withdrawal', () => {
  const proxy = addr(190);
  const client = addr(191);
  const withdraw = beginCell().storeUint(0xda068e78, 32).storeUint(11, 64).storeAddress(at(WALLET)).endCell();
  const excesses = beginCell().storeUint(0x2565934c, 32).storeUint(11, 64).endCell();
  const proxyRequest = (payload: ReturnType<typeof beginCell> | null) =>
    beginCell()
      .storeUint(0x65448ff4, 32)
      .storeUint(11, 64)
      .storeAddress(at(WALLET))
      .storeRef(beginCell().storeUint(0, 2).storeCoins(0n).endCell())
      .storeMaybeRef(payload?.endCell() ?? null)
      .endCell();
  const granted = beginCell().storeUint(0xc68ebc7b, 32).storeCoins(3_000_000_000n).storeAddress(at(WALLET));

  it('owner_client_withdraw answered by the client request to its proxy granting the refund', () => {
    const actions = classify(
      syntheticTrace([
        ext,
        { account: client, from: 0, body: withdraw },
        { account: proxy, from: 1, body: proxyRequest(granted) },
        { account: WALLET, from: 1, body: excesses },
      ]),
    );
    expect(topTypes(actions)).toEqual(['cocoon_client_withdraw']);
    expect(actions[0].success).toBe(true);
    expect(actions[0].tx_hashes).toHaveLength(4);
    expect(v3(actions[0])).toMatchObject({
      source: WALLET,
      destination: client,
      amount: '3000000000',
      query_id: '11',
      withdraw_amount: '3000000000',
    });
  });

  it('a client request without the refund grant withdraws 0; a failed withdrawal is reported as failed', () => {
    const bare = classify(
      syntheticTrace([ext, { account: client, from: 0, body: withdraw }, { account: proxy, from: 1, body: proxyRequest(null) }]),
    );
    expect(topTypes(bare)).toEqual(['cocoon_client_withdraw']);
    expect(v3(bare[0])).toMatchObject({ amount: '0', withdraw_amount: '0' });
    const failed = classify(
      syntheticTrace([
        ext,
        { account: client, from: 0, body: withdraw, aborted: true, exitCode: 1000 },
        { account: proxy, from: 1, body: proxyRequest(granted) },
      ]),
    );
    expect(failed[0].success).toBe(false);
  });

  it('the same opcode at a contract that sends no client request, or a request not of the client layout, is a call', () => {
    expect(topTypes(classify(syntheticTrace([ext, { account: addr(192), from: 0, body: withdraw }])))).toEqual(['call_contract']);
    const notRequest = beginCell().storeUint(0x65448ff4, 32).storeUint(11, 64).endCell();
    const actions = classify(
      syntheticTrace([ext, { account: addr(192), from: 0, body: withdraw }, { account: proxy, from: 1, body: notRequest }]),
    );
    expect(ofType(actions, 'cocoon_client_withdraw')).toHaveLength(0);
  });
});

describe('layerzero DVN verification', () => {
  const dvn = addr(200);
  const proxy = addr(201);
  const uln = addr(202);
  const connection = addr(203);
  const lz = (op: number) => beginCell().storeUint(op, 32).storeUint(21, 64).storeCoins(0n).storeAddress(at(WALLET));
  const ones = (n: number) => (1n << BigInt(n)) - 1n;
  const callback = (nonce: number, status: number) => {
    const verification = beginCell()
      .storeUint(38421788582694199859296615363593851n, 116)
      .storeUint(ones(234), 234)
      .storeUint(nonce, 64)
      .storeUint(status, 32)
      .endCell();
    const md = beginCell().storeUint(1, 8).storeRef(verification).storeRef(beginCell().endCell()).endCell();
    return lz(0x3cb38090).storeRef(md).endCell();
  };
  const flow = (status: number, withCallback = true) =>
    syntheticTrace([
      ext,
      { account: dvn, from: 0, body: lz(0xa0d51a8d).endCell() },
      { account: proxy, from: 1, body: lz(0x09f047d9).endCell() },
      { account: uln, from: 2, body: lz(0x994aaf4e).endCell() },
      { account: connection, from: 3, body: lz(0x4ec8f80a).endCell() },
      ...(withCallback
        ? [
            { account: uln, from: 4, body: callback(77, status) },
            { account: WALLET, from: 5 },
          ]
        : []),
    ]);

  it('verify at the DVN → proxy call → ULN verify → connection verify → callback with the verification status', () => {
    const actions = classify(flow(0x3bbc306b));
    expect(topTypes(actions)).toEqual(['layerzero_dvn_verify']);
    expect(actions[0].tx_hashes).toHaveLength(7);
    expect(v3(actions[0])).toMatchObject({
      initiator: WALLET,
      nonce: 77,
      status: 'succeeded',
      dvn,
      proxy,
      uln,
      uln_connection: connection,
    });
    expect(v3(classify(flow(0x7fcbb4ac))[0])).toMatchObject({ status: 'nonce_out_of_range' });
    expect(v3(classify(flow(0x29c53fab))[0])).toMatchObject({ status: 'dvn_not_configured' });
    expect(v3(classify(flow(5))[0])).toMatchObject({ status: 'unknown_5' });
  });

  it('the verify opcode without the ULN chain and its callback is no verification', () => {
    expect(ofType(classify(flow(0x3bbc306b, false)), 'layerzero_dvn_verify')).toHaveLength(0);
    const alone = classify(syntheticTrace([ext, { account: addr(204), from: 0, body: lz(0xa0d51a8d).endCell() }]));
    expect(topTypes(alone)).toEqual(['call_contract']);
  });
});

describe('STON.fi swaps: exit codes, multi-hop routes, referral fees and proxy-TON out', () => {
  const router = addr(210);
  const pool = addr(211);
  const pool2 = addr(212);
  const userInWallet = addr(213);
  const routerInWallet = addr(214);
  const routerOutWallet = addr(215);
  const userOutWallet = addr(216);
  const jettonIn = addr(217);
  const jettonOut = addr(218);
  const vault = addr(219);
  const interfaces = {
    [userInWallet]: { JettonWallet: { address: userInWallet, owner: WALLET, jetton: jettonIn } },
    [routerInWallet]: { JettonWallet: { address: routerInWallet, owner: router, jetton: jettonIn } },
    [routerOutWallet]: { JettonWallet: { address: routerOutWallet, owner: router, jetton: jettonOut } },
    [userOutWallet]: { JettonWallet: { address: userOutWallet, owner: WALLET, jetton: jettonOut } },
  };
  const transfer = (amount: bigint, to: string) => jettonBodies.transfer(amount, to, WALLET);
  const internalTransfer = jettonBodies.internalTransfer(0n);
  const notify = jettonBodies.notify;
  /** the user's jettons arriving at the router: steps 0–3, the notification at the router is step 3 */
  const entry = [
    ext,
    { account: userInWallet, from: 0, body: transfer(1_000n, router) },
    { account: routerInWallet, from: 1, body: internalTransfer },
    { account: router, from: 2, body: notify(1_000n, WALLET) },
  ];

  describe('v1', () => {
    const swap = beginCell().storeUint(0x25938561, 32).storeUint(1, 64).storeAddress(at(WALLET)).storeCoins(1_000n).endCell();
    const payTo = (owner: string, code: number, amount: bigint) =>
      beginCell()
        .storeUint(0xf93bb43f, 32)
        .storeUint(1, 64)
        .storeAddress(at(owner))
        .storeUint(code, 32)
        .storeBit(1)
        .storeRef(
          beginCell().storeCoins(amount).storeAddress(at(routerOutWallet)).storeCoins(0n).storeAddress(at(routerInWallet)).endCell(),
        )
        .endCell();
    const swapped = (code: number, referral = false) =>
      syntheticTrace(
        [
          ...entry,
          { account: pool, from: 3, body: swap },
          { account: router, from: 4, body: payTo(WALLET, code, 900n) },
          { account: routerOutWallet, from: 5, body: transfer(900n, WALLET) },
          { account: userOutWallet, from: 6, body: internalTransfer },
          { account: WALLET, from: 7, body: notify(900n, router) },
          ...(referral
            ? [
                { account: router, from: 4, body: payTo(OTHER, 0x45078540, 9n) },
                { account: routerOutWallet, from: 9, body: transfer(9n, OTHER) },
              ]
            : []),
        ],
        interfaces,
      );

    it('pay_to with swap_ok is a successful swap; a refund code (no liquidity, reserve error) is a failed one', () => {
      const ok = ofType(classify(swapped(0xc64370e5)), 'jetton_swap');
      expect(ok).toHaveLength(1);
      expect(ok[0].success).toBe(true);
      expect(v3(ok[0])).toMatchObject({ dex: 'stonfi', sender: WALLET, asset_in: jettonIn, asset_out: jettonOut });
      for (const refund of [0x5ffe1295, 0x38976e9b]) expect(ofType(classify(swapped(refund)), 'jetton_swap')[0].success).toBe(false);
    });

    it("the referral's share (its own exit code) does not become the swap's payout", () => {
      const [swapAction] = ofType(classify(swapped(0xc64370e5, true)), 'jetton_swap');
      expect(swapAction.success).toBe(true);
      expect((swapAction.jetton_swap_data as { dex_outgoing_transfer: { amount: string } }).dex_outgoing_transfer.amount).toBe('900');
    });
  });

  describe('v2', () => {
    const swap = beginCell().storeUint(0x6664de2a, 32).storeUint(1, 64).storeAddress(at(routerInWallet)).endCell();
    const payTo = (code: number) =>
      beginCell()
        .storeUint(0x657b54f5, 32)
        .storeUint(1, 64)
        .storeAddress(at(WALLET))
        .storeAddress(at(WALLET))
        .storeAddress(at(WALLET))
        .storeUint(code, 32)
        .storeMaybeRef(null)
        .storeRef(beginCell().storeCoins(0n).storeCoins(900n).storeAddress(at(routerOutWallet)).storeCoins(0n).storeAddress(null).endCell())
        .endCell();
    const ptonOut = beginCell().storeUint(0x01f3835d, 32).storeUint(1, 64).storeCoins(777n).storeAddress(at(WALLET)).endCell();

    it('proxy-TON out: the pTON wallet sends the TON to the receiver, and that belongs to the swap', () => {
      const trace = (code: number) =>
        syntheticTrace(
          [
            ...entry,
            { account: pool, from: 3, body: swap },
            { account: router, from: 4, body: payTo(code) },
            { account: routerOutWallet, from: 5, body: transfer(777n, WALLET) },
            { account: WALLET, from: 6, body: ptonOut },
          ],
          interfaces,
        );
      const actions = classify(trace(0xc64370e5));
      expect(topTypes(actions)).toEqual(['jetton_swap']);
      expect(actions[0].success).toBe(true);
      expect(actions[0].jetton_swap_data).toMatchObject({
        dex: 'stonfi_v2',
        dex_outgoing_transfer: { asset: null, amount: '777', destination: WALLET, source: router, source_jetton_wallet: routerOutWallet },
      });
      const failed = classify(trace(0x5ffe1295));
      expect(topTypes(failed)).toEqual(['jetton_swap']);
      expect(failed[0].success).toBe(false);
    });

    it('a multi-hop route (pay_to swapping again at another pool) and a referral fee are one swap; any refunded hop fails it', () => {
      const trace = (secondCode: number) =>
        syntheticTrace(
          [
            ...entry,
            { account: pool, from: 3, body: swap },
            { account: vault, from: 4, body: beginCell().storeUint(0x63381632, 32).storeUint(1, 64).endCell() },
            { account: router, from: 5, body: beginCell().storeUint(0x0490f09b, 32).storeUint(1, 64).endCell() },
            { account: router, from: 4, body: payTo(0xc64370e5) },
            { account: pool2, from: 7, body: swap },
            { account: router, from: 8, body: payTo(secondCode) },
            { account: routerOutWallet, from: 9, body: transfer(900n, WALLET) },
            { account: userOutWallet, from: 10, body: internalTransfer },
            { account: WALLET, from: 11, body: notify(900n, router) },
          ],
          interfaces,
        );
      const actions = classify(trace(0xc64370e5));
      expect(topTypes(actions)).toEqual(['jetton_swap']);
      expect(actions[0].success).toBe(true);
      expect(actions[0].tx_hashes).toHaveLength(13);
      expect(v3(actions[0])).toMatchObject({ asset_in: jettonIn, asset_out: jettonOut });
      expect(classify(trace(0x38976e9b))[0].success).toBe(false);
    });
  });
});

describe('DeDust swaps with TON in', () => {
  const nativeVault = addr(230);
  const pool = addr(231);
  const jettonVault = addr(232);
  const vaultWallet = addr(233);
  const userWallet = addr(234);
  const jetton = addr(235);
  const interfaces = {
    [vaultWallet]: { JettonWallet: { address: vaultWallet, owner: jettonVault, jetton } },
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
  };
  const swap = beginCell()
    .storeUint(0xea06185d, 32)
    .storeUint(1, 64)
    .storeCoins(5_000n)
    .storeAddress(at(pool))
    .storeUint(0, 1)
    .storeCoins(0n)
    .storeMaybeRef(null)
    .storeRef(beginCell().endCell())
    .endCell();
  const jettonAsset = (b: ReturnType<typeof beginCell>) =>
    b
      .storeUint(1, 4)
      .storeInt(0, 8)
      .storeBuffer(Buffer.from(jetton.split(':')[1], 'hex'));
  const event = jettonAsset(beginCell().storeUint(0x9c610de3, 32).storeUint(0, 4)).storeCoins(5_000n).storeCoins(42n).endCell();
  const external = beginCell().storeUint(0x61ee542d, 32).storeUint(1, 64).endCell();
  const payoutFromPool = beginCell().storeUint(0xad4eb6f5, 32).storeUint(1, 64).endCell();
  const transfer = jettonBodies.transfer(42n, WALLET, WALLET);
  const internalTransfer = jettonBodies.internalTransfer(42n);

  it('swap#ea06185d at the native vault → the pool → payout from the jetton vault is a swap with TON in', () => {
    const actions = classify(
      syntheticTrace(
        [
          ext,
          { account: nativeVault, from: 0, body: swap, value: 5_100n },
          { account: pool, from: 1, body: external, logs: [event] },
          { account: jettonVault, from: 2, body: payoutFromPool },
          { account: vaultWallet, from: 3, body: transfer },
          { account: userWallet, from: 4, body: internalTransfer },
        ],
        interfaces,
      ),
    );
    expect(topTypes(actions)).toEqual(['jetton_swap']);
    expect(actions[0].jetton_swap_data).toMatchObject({
      dex: 'dedust',
      sender: WALLET,
      dex_incoming_transfer: { asset: null, amount: '5000', source: WALLET, destination: nativeVault },
      dex_outgoing_transfer: { asset: jetton, amount: '42', destination: WALLET, destination_jetton_wallet: userWallet },
    });
  });

  it('the same opcode where no pool is asked is no swap', () => {
    const actions = classify(syntheticTrace([ext, { account: addr(236), from: 0, body: swap }]));
    expect(topTypes(actions)).toEqual(['call_contract']);
  });
});

describe('Coffee swaps with TON in', () => {
  const nativeVault = addr(240);
  const pool = addr(241);
  const outVault = addr(242);
  const swapNative = beginCell().storeUint(0xc0ffee00, 32).storeUint(1, 64).storeCoins(8_000n).storeAddress(at(pool)).endCell();
  const swapInternal = beginCell().storeUint(0xc0ffee20, 32).storeUint(1, 64).endCell();
  const payoutInternal = (amount: bigint) =>
    beginCell().storeUint(0xc0ffee21, 32).storeUint(1, 64).storeAddress(at(WALLET)).storeCoins(amount).endCell();
  const payout = beginCell().storeUint(0xc0ffee32, 32).storeUint(1, 64).endCell();
  const trace = (logs: ReturnType<typeof beginCell>[] = []) =>
    syntheticTrace([
      ext,
      { account: nativeVault, from: 0, body: swapNative, value: 8_100n },
      { account: pool, from: 1, body: swapInternal, logs: logs.map((l) => l.endCell()) },
      { account: outVault, from: 2, body: payoutInternal(61n) },
      { account: WALLET, from: 3, body: payout },
    ]);

  it('swap_native#c0ffee00 at the native vault → the pool → the payout is a swap with TON in; the failed-swap log fails it', () => {
    const actions = classify(trace());
    expect(topTypes(actions)).toEqual(['jetton_swap']);
    expect(actions[0].success).toBe(true);
    expect(actions[0].jetton_swap_data).toMatchObject({
      dex: 'coffee',
      dex_incoming_transfer: { asset: null, amount: '8000', source: WALLET, destination: nativeVault },
      dex_outgoing_transfer: { amount: '61', destination: WALLET },
    });
    const failed = classify(trace([beginCell().storeUint(0xc0ffee31, 32)]));
    expect(topTypes(failed)).toEqual(['jetton_swap']);
    expect(failed[0].success).toBe(false);
  });

  it('the same opcode where the vault asks no pool is no swap', () => {
    expect(topTypes(classify(syntheticTrace([ext, { account: addr(243), from: 0, body: swapNative }])))).toEqual(['call_contract']);
  });
});

describe('DeDust liquidity deposits', () => {
  const nativeVault = addr(250);
  const factory = addr(251);
  const contract = addr(252);
  const pool = addr(253);
  const userWallet = addr(254);
  const vaultWallet = addr(255);
  const jettonVault = addr(256);
  const lpWallet = addr(257);
  const jetton = addr(258);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
    [vaultWallet]: { JettonWallet: { address: vaultWallet, owner: jettonVault, jetton } },
  };
  const asset = (b: ReturnType<typeof beginCell>, a: string | null) =>
    a === null
      ? b.storeUint(0, 4)
      : b
          .storeUint(1, 4)
          .storeInt(0, 8)
          .storeBuffer(Buffer.from(a.split(':')[1], 'hex'));
  const empty = beginCell().endCell();
  const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64).endCell();
  // the factory's call: owner, the pair (TON, jetton), the target balances and this deposit
  const createDeposit = (deposited: string | null, amount: bigint) =>
    asset(asset(beginCell().storeUint(0xf04ec526, 32).storeUint(1, 64).storeRef(empty).storeAddress(at(WALLET)).storeBit(0), null), jetton)
      .storeRef(asset(beginCell().storeCoins(100n).storeCoins(200n), deposited).storeCoins(amount).endCell())
      .endCell();
  const toPool = beginCell()
    .storeUint(0xb56b9598, 32)
    .storeUint(1, 64)
    .storeRef(empty)
    .storeAddress(at(WALLET))
    .storeCoins(0n)
    .storeRef(asset(asset(beginCell(), null).storeCoins(100n), jetton).storeCoins(200n).endCell())
    .endCell();
  const lpMint = beginCell().storeUint(0x178d4519, 32).storeUint(1, 64).storeCoins(50n).storeAddress(at(pool)).endCell();
  /** TON to the native vault (partial: the factory deploys the contract), then the jettons that complete it. */
  const trace = (poolAnswer: 'mint' | 'reject' | 'none', opts: { deploy?: boolean; tonOp?: number } = {}) =>
    syntheticTrace(
      [
        ext,
        { account: nativeVault, from: 0, body: op(opts.tonOp ?? 0xd55e4686), value: 100n },
        { account: factory, from: 1, body: createDeposit(null, 100n) },
        ...(opts.deploy === false
          ? [{ account: factory, from: 0 }]
          : [{ account: contract, from: 2, body: op(0x9b3aa3fa), deploys: true }]),
        { account: contract, from: 2, body: op(0x54240fe5) },
        { account: userWallet, from: 0, body: jettonBodies.transfer(200n, jettonVault, WALLET) },
        { account: vaultWallet, from: 5, body: jettonBodies.internalTransfer(200n) },
        { account: jettonVault, from: 6, body: jettonBodies.notify(200n, WALLET) },
        { account: factory, from: 7, body: createDeposit(jetton, 200n) },
        { account: contract, from: 8, body: op(0x54240fe5) },
        { account: pool, from: 9, body: toPool },
        ...(poolAnswer === 'mint'
          ? [{ account: lpWallet, from: 10, body: lpMint }]
          : poolAnswer === 'reject'
            ? [{ account: contract, from: 10, body: op(0xe1a36cd4) }]
            : []),
      ],
      interfaces,
    );

  it('the partial TON deposit and the final jetton deposit into one contract are one action (successful or rejected)', () => {
    const actions = classify(trace('mint'));
    const deposits = ofType(actions, 'dex_deposit_liquidity');
    expect(deposits).toHaveLength(1);
    expect(deposits[0].success).toBe(true);
    expect(deposits[0].destination).toBe(pool);
    expect(deposits[0].destination_secondary).toBe(contract);
    expect(deposits[0].dex_deposit_liquidity_data).toMatchObject({
      dex: 'dedust',
      asset1: null,
      amount1: '100',
      asset2: jetton,
      amount2: '200',
      user_jetton_wallet_2: userWallet,
      lp_tokens_minted: '50',
      target_asset_1: null,
      target_asset_2: jetton,
    });
    const rejected = ofType(classify(trace('reject')), 'dex_deposit_liquidity');
    expect(rejected).toHaveLength(1);
    expect(rejected[0].success).toBe(false);
    expect(rejected[0].dex_deposit_liquidity_data).toMatchObject({ amount1: '100', amount2: '200', lp_tokens_minted: null });
  });

  it('a deposit the pool neither mints nor rejects, a partial deposit without the deploy, a factory call from no vault deposit: none', () => {
    const unanswered = ofType(classify(trace('none')), 'dex_deposit_liquidity');
    // the TON leg still stands on its own: the factory deployed the contract and nothing went further
    expect(unanswered).toHaveLength(1);
    expect(unanswered[0].destination).toBeNull();
    expect(unanswered[0].dex_deposit_liquidity_data).toMatchObject({ asset1: null, amount1: '100' });
    const noDeploy = ofType(classify(trace('mint', { deploy: false })), 'dex_deposit_liquidity');
    expect(noDeploy).toHaveLength(1);
    expect(noDeploy[0].dex_deposit_liquidity_data).toMatchObject({ asset1: jetton, amount1: '200', asset2: null });
    const notAVault = ofType(classify(trace('mint', { tonOp: 0x12121212 })), 'dex_deposit_liquidity');
    expect(notAVault).toHaveLength(1);
    expect(notAVault[0].dex_deposit_liquidity_data).toMatchObject({ asset1: jetton, amount1: '200', asset2: null });
  });
});

describe('TONCO liquidity deposits', () => {
  const userWallet = addr(260);
  const routerWallet = addr(261);
  const router = addr(262);
  const pool = addr(263);
  const account = addr(264);
  const nft = addr(265);
  const jetton = addr(266);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
    [routerWallet]: { JettonWallet: { address: routerWallet, owner: router, jetton } },
  };
  const fund = beginCell().storeUint(0x4468de77, 32).storeUint(1, 64).storeAddress(at(WALLET)).storeCoins(70n).storeCoins(0n).endCell();
  const addLiquidity = beginCell().storeUint(0x3ebe5431, 32).storeUint(1, 64).endCell();
  const mint = beginCell().storeUint(0x81702ef8, 32).storeUint(1, 64).endCell();
  const positionInit = beginCell()
    .storeUint(0xd5ecca2a, 32)
    .storeUint(1, 64)
    .storeAddress(at(WALLET))
    .storeUint(33n, 128)
    .storeInt(-10, 24)
    .storeInt(10, 24)
    .endCell();
  const steps = [
    ext,
    { account: userWallet, from: 0, body: jettonBodies.transfer(70n, router, WALLET) },
    { account: routerWallet, from: 1, body: jettonBodies.internalTransfer(70n) },
    { account: router, from: 2, body: jettonBodies.notify(70n, WALLET) },
    { account: pool, from: 3, body: fund },
    { account, from: 4, body: addLiquidity },
    { account: pool, from: 5, body: mint },
    { account: nft, from: 6, body: positionInit, deploys: true },
  ];

  it('the account’s add_liquidity after fund_account is a deposit; a first leg waiting for the other asset is no failure', () => {
    const full = ofType(classify(syntheticTrace(steps, interfaces)), 'dex_deposit_liquidity');
    expect(full).toHaveLength(1);
    expect(full[0].success).toBe(true);
    expect(full[0].dex_deposit_liquidity_data).toMatchObject({
      dex: 'tonco',
      asset1: jetton,
      amount1: '70',
      lp_tokens_minted: '33',
      nft_address: nft,
    });
    const firstLeg = ofType(classify(syntheticTrace(steps.slice(0, 6), interfaces)), 'dex_deposit_liquidity');
    expect(firstLeg).toHaveLength(1);
    expect(firstLeg[0].success).toBe(true);
    expect(firstLeg[0].dex_deposit_liquidity_data).toMatchObject({ lp_tokens_minted: null, nft_address: null });
  });

  it('without the account’s add_liquidity, or with a notification no jetton transfer made, there is no deposit', () => {
    expect(ofType(classify(syntheticTrace(steps.slice(0, 5), interfaces)), 'dex_deposit_liquidity')).toHaveLength(0);
    const forged = syntheticTrace(
      [
        ext,
        { account: router, from: 0, body: jettonBodies.notify(70n, WALLET) },
        { account: pool, from: 1, body: fund },
        { account, from: 2, body: addLiquidity },
      ],
      interfaces,
    );
    expect(ofType(classify(forged), 'dex_deposit_liquidity')).toHaveLength(0);
  });
});

describe('coffee MEV-protect holds', () => {
  const mev = addr(270);
  const feeCollector = addr(271);
  const userWallet = addr(272);
  const mevWallet = addr(273);
  const jetton = addr(274);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
    [mevWallet]: { JettonWallet: { address: mevWallet, owner: mev, jetton } },
  };
  const hold = beginCell().storeUint(0x6bc79e7e, 32).storeUint(7, 64).endCell();
  const fee = beginCell().storeUint(0xc0ffeea0, 32).storeUint(7, 64).storeUint(0, 2).endCell();
  const notifyWith = (payload: Cell) =>
    beginCell().storeUint(0x7362d09c, 32).storeUint(1, 64).storeCoins(90n).storeAddress(at(WALLET)).storeBit(1).storeRef(payload).endCell();

  it('the hold (exactly query_id) with the service fee sent beside it is one action; TON or jettons', () => {
    const ton = classify(
      syntheticTrace([
        ext,
        { account: feeCollector, from: 0, body: fee, value: 45n },
        { account: mev, from: 0, body: hold, value: 1_500n },
      ]),
    );
    const held = ofType(ton, 'coffee_mev_protect_hold_funds');
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ source: WALLET, destination: mev, amount: '1500', asset: null });
    expect(held[0].tx_hashes).toHaveLength(3);
    expect(ofType(ton, 'call_contract')).toHaveLength(0);
    const jettons = classify(
      syntheticTrace(
        [
          ext,
          { account: userWallet, from: 0, body: jettonBodies.transfer(90n, mev, WALLET) },
          { account: mevWallet, from: 1, body: jettonBodies.internalTransfer(90n) },
          { account: mev, from: 2, body: notifyWith(hold) },
        ],
        interfaces,
      ),
    );
    expect(ofType(jettons, 'coffee_mev_protect_hold_funds')[0]).toMatchObject({
      source: WALLET,
      destination: mev,
      asset: jetton,
      amount: '90',
    });
  });

  it('the opcode with another layout, or a notification no jetton transfer made, is no hold', () => {
    const longer = beginCell().storeUint(0x6bc79e7e, 32).storeUint(7, 64).storeCoins(5n).endCell();
    const other = classify(syntheticTrace([ext, { account: mev, from: 0, body: longer }]));
    expect(topTypes(other)).toEqual(['call_contract']);
    const forged = classify(syntheticTrace([ext, { account: mev, from: 0, body: notifyWith(hold) }], interfaces));
    expect(ofType(forged, 'coffee_mev_protect_hold_funds')).toHaveLength(0);
  });
});

describe('coffee MEV-protect failed swaps', () => {
  const mev = addr(275);
  const recipient = addr(276);
  const userWallet = addr(277);
  const mevWallet = addr(278);
  const jetton = addr(279);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
    [mevWallet]: { JettonWallet: { address: mevWallet, owner: mev, jetton } },
  };
  const failedSwap = (to: Address | null = at(recipient)) => beginCell().storeUint(0xee51ce51, 32).storeUint(7, 64).storeAddress(to);
  const body = failedSwap().endCell();
  const notifyWith = (payload: Cell) =>
    beginCell().storeUint(0x7362d09c, 32).storeUint(1, 64).storeCoins(90n).storeAddress(at(WALLET)).storeBit(1).storeRef(payload).endCell();
  const jettonFlow = (payload: Cell) =>
    syntheticTrace(
      [
        ext,
        { account: userWallet, from: 0, body: jettonBodies.transfer(90n, mev, WALLET) },
        { account: mevWallet, from: 1, body: jettonBodies.internalTransfer(90n) },
        { account: mev, from: 2, body: notifyWith(payload) },
        { account: WALLET, from: 2, body: beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell() },
      ],
      interfaces,
    );

  it('a TON call with exactly query_id and recipient is the failed swap: the recipient and Toncoin, nothing else', () => {
    const actions = classify(syntheticTrace([ext, { account: mev, from: 0, body, value: 1_500n }]));
    const failed = ofType(actions, 'coffee_mev_protect_failed_swap');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      source: null,
      destination: recipient,
      asset: null,
      amount: null,
      success: true,
    });
    expect(failed[0].tx_hashes).toHaveLength(2);
    expect(failed[0].accounts).toEqual(expect.arrayContaining([WALLET, mev, recipient]));
    expect(ofType(actions, 'call_contract')).toHaveLength(0);
    expect(v3(failed[0])).toEqual({ recipient, asset: null });
  });

  it('reports success whatever the receiving transaction did, as the reference never marks it failed', () => {
    const aborted = classify(syntheticTrace([ext, { account: mev, from: 0, body, aborted: true, exitCode: 9 }]));
    expect(ofType(aborted, 'coffee_mev_protect_failed_swap')[0]).toMatchObject({ success: true, destination: recipient });
  });

  it('a jetton transfer whose notification forwards it is the failed swap with that jetton; nothing else is part of it', () => {
    const actions = classify(jettonFlow(body));
    const failed = ofType(actions, 'coffee_mev_protect_failed_swap');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ destination: recipient, asset: jetton, source: null, amount: null, success: true });
    expect(failed[0].tx_hashes).toHaveLength(5);
    expect(ofType(actions, 'jetton_transfer')).toHaveLength(0);
    expect(v3(failed[0])).toEqual({ recipient, asset: jetton });
    // an inline forward payload is the same message
    const inline = beginCell()
      .storeUint(0x7362d09c, 32)
      .storeUint(1, 64)
      .storeCoins(90n)
      .storeAddress(at(WALLET))
      .storeBit(0)
      .storeSlice(body.beginParse())
      .endCell();
    const steps = jettonFlow(body);
    const notify = steps.transactions[3].messages[0];
    notify.body = inline.toBoc().toString('base64');
    steps.transactions[2].messages.find((m) => m.direction === 'out')!.body = notify.body;
    expect(ofType(classify(steps), 'coffee_mev_protect_failed_swap')[0]).toMatchObject({ destination: recipient, asset: jetton });
  });

  it('the opcode with a trailing bit, without a recipient or with one no internal address gives no coffee action', () => {
    const trailing = failedSwap().storeBit(1).endCell();
    const withRef = failedSwap().storeRef(beginCell().endCell()).endCell();
    const none = failedSwap(null).endCell();
    const missing = beginCell().storeUint(0xee51ce51, 32).storeUint(7, 64).endCell();
    const external = beginCell().storeUint(0xee51ce51, 32).storeUint(7, 64).storeAddress(new ExternalAddress(5n, 8)).endCell();
    // addr_var (tag 0b11) is read as no address here
    const varAddress = beginCell()
      .storeUint(0xee51ce51, 32)
      .storeUint(7, 64)
      .storeUint(0b11, 2)
      .storeBit(0)
      .storeUint(256, 9)
      .storeInt(0, 32)
      .storeBuffer(Buffer.alloc(32, 1))
      .endCell();
    for (const bad of [trailing, withRef, none, missing, external, varAddress]) {
      const call = classify(syntheticTrace([ext, { account: mev, from: 0, body: bad }]));
      expect(call.filter((a) => a.type.startsWith('coffee_'))).toHaveLength(0);
      expect(topTypes(call)).toEqual(['call_contract']);
      const jettons = classify(jettonFlow(bad));
      expect(jettons.filter((a) => a.type.startsWith('coffee_'))).toHaveLength(0);
      expect(topTypes(jettons)).toEqual(['jetton_transfer']);
    }
  });

  it('outside those flows: a notification no jetton transfer made or no internal transfer delivered, or a bounce', () => {
    const forged = classify(syntheticTrace([ext, { account: mev, from: 0, body: notifyWith(body) }], interfaces));
    expect(forged.filter((a) => a.type.startsWith('coffee_'))).toHaveLength(0);
    const bounced = classify(
      syntheticTrace([
        ext,
        { account: OTHER, from: 0, body: beginCell().storeUint(0x0badc0de, 32).endCell() },
        { account: mev, from: 1, bounced: true, body },
      ]),
    );
    expect(bounced.filter((a) => a.type.startsWith('coffee_'))).toHaveLength(0);
    // a notification straight from the sender's wallet, without the wallets' internal transfer
    const noInternal = classify(
      syntheticTrace(
        [
          ext,
          { account: userWallet, from: 0, body: jettonBodies.transfer(90n, mev, WALLET) },
          { account: mev, from: 1, body: notifyWith(body) },
        ],
        interfaces,
      ),
    );
    expect(noInternal.filter((a) => a.type.startsWith('coffee_'))).toHaveLength(0);
  });
});

describe('Coffee liquidity', () => {
  const nativeVault = addr(280);
  const factory = addr(281);
  const depository = addr(282);
  const pool = addr(283);
  const lpWallet = addr(284);
  const creator = addr(285);
  const jetton = addr(286);
  const coffeeJetton = (b: ReturnType<typeof beginCell>) =>
    b
      .storeUint(1, 2)
      .storeUint(0, 8)
      .storeBuffer(Buffer.from(jetton.split(':')[1], 'hex'));
  const pair = (b: ReturnType<typeof beginCell>) => coffeeJetton(b.storeUint(0, 2));
  const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64).endCell();
  const depositRequest = (first: 'ton' | 'jetton' = 'ton') =>
    beginCell()
      .storeUint(0xc0ffee27, 32)
      .storeUint(1, 64)
      .storeCoins(300n)
      .storeRef(beginCell().endCell())
      .storeRef(
        (first === 'ton'
          ? pair(beginCell())
          : coffeeJetton(beginCell()).storeUint(1, 2).storeUint(0, 8).storeBuffer(Buffer.alloc(32, 9))
        ).endCell(),
      )
      .storeAddress(at(WALLET))
      .endCell();
  const lpMint = beginCell().storeUint(0x178d4519, 32).storeUint(1, 64).storeCoins(44n).storeAddress(at(pool)).endCell();
  const depositTrace = (nativeOp = 0xc0ffee04, first: 'ton' | 'jetton' = 'ton') =>
    syntheticTrace([
      ext,
      { account: nativeVault, from: 0, body: op(nativeOp), value: 300n },
      { account: factory, from: 1, body: depositRequest(first) },
      { account: depository, from: 2, body: op(0xc0ffee22), deploys: true },
      { account: pool, from: 3, body: op(0xc0ffee29) },
      { account: lpWallet, from: 4, body: lpMint },
    ]);

  it('deposit_liquidity_native → the factory → the depository → the pool is a deposit; the LP from the LP mint without the event', () => {
    const deposits = ofType(classify(depositTrace()), 'dex_deposit_liquidity');
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ source: WALLET, destination: pool, destination_secondary: depository });
    expect(deposits[0].dex_deposit_liquidity_data).toMatchObject({
      dex: 'coffee',
      asset1: null,
      amount1: '300',
      lp_tokens_minted: '44',
      target_asset_2: jetton,
    });
  });

  it('the factory’s request after another opcode, or for a pair without the deposited asset, is no deposit', () => {
    expect(ofType(classify(depositTrace(0x12121212)), 'dex_deposit_liquidity')).toHaveLength(0);
    expect(ofType(classify(depositTrace(0xc0ffee04, 'jetton')), 'dex_deposit_liquidity')).toHaveLength(0);
  });

  const creatorRequest = beginCell()
    .storeUint(0xc0ffee23, 32)
    .storeUint(1, 64)
    .storeCoins(500n)
    .store((b) => pair(b))
    .storeUint(0, 3)
    .storeMaybeRef(null)
    .storeRef(beginCell().storeAddress(at(WALLET)).storeBit(0).storeMaybeRef(null).endCell())
    .storeAddress(at(WALLET))
    .endCell();
  const poolRequest = beginCell().storeUint(0xc0ffee25, 32).storeUint(1, 64).storeCoins(500n).storeCoins(600n).endCell();
  const event = beginCell().storeUint(0xc0ffee33, 32).storeUint(1, 64).storeCoins(500n).storeCoins(600n).storeCoins(77n).endCell();
  const createTrace = (logs: ReturnType<typeof beginCell>[]) =>
    syntheticTrace([
      ext,
      { account: nativeVault, from: 0, body: op(0xc0ffee02), value: 500n },
      { account: factory, from: 1, body: creatorRequest },
      { account: creator, from: 2, body: op(0xc0ffee22), deploys: true },
      { account: factory, from: 3, body: poolRequest },
      { account: pool, from: 4, body: op(0xc0ffee22), deploys: true, logs: logs.map((l) => l.endCell()) },
      { account: lpWallet, from: 5, body: lpMint },
    ]);

  it('a pool creation needs the new pool’s deposit_liquidity_successful_event; without it only the pool creator stands', () => {
    const created = classify(createTrace([event.asBuilder()]));
    expect(topTypes(created)).toContain('coffee_create_pool');
    const noEvent = classify(createTrace([]));
    expect(topTypes(noEvent)).not.toContain('coffee_create_pool');
    expect(topTypes(noEvent)).toContain('coffee_create_pool_creator');
  });
});

describe('TONCO liquidity withdrawals', () => {
  const pool = addr(290);
  const nft = addr(291);
  const router = addr(292);
  const routerWallet = addr(293);
  const payTo = (exitCode: number) =>
    beginCell()
      .storeUint(0xa1daa96d, 32)
      .storeUint(1, 64)
      .storeAddress(at(WALLET))
      .storeAddress(at(WALLET))
      .storeUint(exitCode, 32)
      .storeUint(0, 64)
      .storeMaybeRef(beginCell().storeCoins(10n).storeAddress(at(routerWallet)).storeCoins(20n).storeAddress(at(routerWallet)).endCell())
      .storeMaybeRef(beginCell().storeUint(5, 64).storeUint(99n, 128).storeInt(-10, 24).storeInt(10, 24).endCell())
      .endCell();
  const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64).endCell();
  const trace = (exitCode: number) =>
    syntheticTrace([
      ext,
      { account: pool, from: 0, body: op(0x530b5f2c) },
      { account: nft, from: 1, body: op(0x46ca335a) },
      { account: pool, from: 2, body: op(0xd73ac09d) },
      { account: router, from: 3, body: payTo(exitCode) },
    ]);

  it('the burn paid out (pay_to exit code 201) is a withdrawal; another exit code fails it', () => {
    const ok = ofType(classify(trace(201)), 'dex_withdraw_liquidity');
    expect(ok).toHaveLength(1);
    expect(ok[0].success).toBe(true);
    expect(ok[0].dex_withdraw_liquidity_data).toMatchObject({ dex: 'tonco', amount1: '10', amount2: '20', lp_tokens_burnt: '99' });
    const failed = ofType(classify(trace(0xdead)), 'dex_withdraw_liquidity');
    expect(failed).toHaveLength(1);
    expect(failed[0].success).toBe(false);
  });
});

describe('coffee staking deposits', () => {
  const userWallet = addr(300);
  const vaultWallet = addr(301);
  const vault = addr(302);
  const stakingPool = addr(303);
  const position = addr(304);
  const jetton = addr(305);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton } },
    [vaultWallet]: { JettonWallet: { address: vaultWallet, owner: vault, jetton } },
  };
  const op = (code: number) => beginCell().storeUint(code, 32).storeUint(1, 64).endCell();
  const steps = [
    ext,
    { account: userWallet, from: 0, body: jettonBodies.transfer(80n, vault, WALLET) },
    { account: vaultWallet, from: 1, body: jettonBodies.internalTransfer(80n) },
    { account: vault, from: 2, body: jettonBodies.notify(80n, WALLET) },
    { account: stakingPool, from: 3, body: op(0xf9471134) },
    { account: position, from: 4, body: op(0xbe5a7595), deploys: true },
  ];

  it('jettons registered at the pool that mints the position NFT are a staking deposit; without the mint they stay a transfer', () => {
    const deposit = ofType(classify(syntheticTrace(steps, interfaces)), 'coffee_staking_deposit');
    expect(deposit).toHaveLength(1);
    expect(deposit[0]).toMatchObject({ source: WALLET, destination: stakingPool, asset: jetton, amount: '80' });
    expect(deposit[0].coffee_staking_deposit_data).toMatchObject({ minted_item_address: position });
    const noMint = classify(syntheticTrace(steps.slice(0, 5), interfaces));
    expect(ofType(noMint, 'coffee_staking_deposit')).toHaveLength(0);
    expect(topTypes(noMint)).toContain('jetton_transfer');
  });
});

describe('TONCO swaps', () => {
  const userWallet = addr(310);
  const routerInWallet = addr(311);
  const router = addr(312);
  const pool = addr(313);
  const routerOutWallet = addr(314);
  const userOutWallet = addr(315);
  const jettonIn = addr(316);
  const jettonOut = addr(317);
  const interfaces = {
    [userWallet]: { JettonWallet: { address: userWallet, owner: WALLET, jetton: jettonIn } },
    [routerInWallet]: { JettonWallet: { address: routerInWallet, owner: router, jetton: jettonIn } },
    [routerOutWallet]: { JettonWallet: { address: routerOutWallet, owner: router, jetton: jettonOut } },
    [userOutWallet]: { JettonWallet: { address: userOutWallet, owner: WALLET, jetton: jettonOut } },
  };
  const poolSwap = beginCell().storeUint(0xa7fb58f8, 32).storeUint(1, 64).endCell();
  const payTo = (exitCode: number) =>
    beginCell()
      .storeUint(0xa1daa96d, 32)
      .storeUint(1, 64)
      .storeAddress(at(WALLET))
      .storeAddress(at(WALLET))
      .storeUint(exitCode, 32)
      .storeUint(0, 64)
      .storeMaybeRef(null)
      .storeMaybeRef(null)
      .endCell();
  const trace = (exitCode: number) =>
    syntheticTrace(
      [
        ext,
        { account: userWallet, from: 0, body: jettonBodies.transfer(100n, router, WALLET) },
        { account: routerInWallet, from: 1, body: jettonBodies.internalTransfer(100n) },
        { account: router, from: 2, body: jettonBodies.notify(100n, WALLET) },
        { account: pool, from: 3, body: poolSwap },
        { account: router, from: 4, body: payTo(exitCode) },
        { account: routerOutWallet, from: 5, body: jettonBodies.transfer(37n, WALLET, WALLET) },
        { account: userOutWallet, from: 6, body: jettonBodies.internalTransfer(37n) },
      ],
      interfaces,
    );

  it('a pay_to with the done-swap exit code (200) is a successful swap; another exit code (a refund) fails it', () => {
    const ok = ofType(classify(trace(200)), 'jetton_swap');
    expect(ok).toHaveLength(1);
    expect(ok[0].success).toBe(true);
    expect(ok[0].jetton_swap_data).toMatchObject({ dex: 'tonco', dex_outgoing_transfer: { amount: '37' } });
    const refunded = ofType(classify(trace(300)), 'jetton_swap');
    expect(refunded).toHaveLength(1);
    expect(refunded[0].success).toBe(false);
  });
});

describe('Coffee liquidity withdrawals', () => {
  const lpWallet = addr(320);
  const pool = addr(321);
  const vaultA = addr(322);
  const vaultB = addr(323);
  const interfaces = { [lpWallet]: { JettonWallet: { address: lpWallet, owner: WALLET, jetton: pool } } };
  const burn = beginCell()
    .storeUint(0x595f07bc, 32)
    .storeUint(1, 64)
    .storeCoins(50n)
    .storeAddress(at(WALLET))
    .storeMaybeRef(null)
    .endCell();
  const burnNotification = beginCell()
    .storeUint(0x7bdd97de, 32)
    .storeUint(1, 64)
    .storeCoins(50n)
    .storeAddress(at(WALLET))
    .storeAddress(at(WALLET))
    .endCell();
  const event = beginCell().storeUint(0xc0ffee35, 32).storeUint(1, 64).storeCoins(11n).storeCoins(22n).storeCoins(50n).endCell();
  const payoutInternal = (amount: bigint) =>
    beginCell().storeUint(0xc0ffee21, 32).storeUint(1, 64).storeAddress(at(WALLET)).storeCoins(amount).endCell();
  const payout = beginCell().storeUint(0xc0ffee32, 32).storeUint(1, 64).endCell();
  const steps = [
    ext,
    { account: lpWallet, from: 0, body: burn },
    { account: pool, from: 1, body: burnNotification, logs: [event] },
    { account: vaultA, from: 2, body: payoutInternal(11n) },
    { account: WALLET, from: 3, body: payout },
    { account: vaultB, from: 2, body: payoutInternal(22n) },
    { account: WALLET, from: 5, body: payout },
  ];

  it('the LP burn, the pool’s withdrawal event and both vaults’ payouts are a withdrawal; with one payout it is none', () => {
    const withdrawal = ofType(classify(syntheticTrace(steps, interfaces)), 'dex_withdraw_liquidity');
    expect(withdrawal).toHaveLength(1);
    expect(withdrawal[0].dex_withdraw_liquidity_data).toMatchObject({ dex: 'coffee', amount1: '11', amount2: '22', lp_tokens_burnt: '50' });
    const onePayout = classify(syntheticTrace(steps.slice(0, 5), interfaces));
    expect(ofType(onePayout, 'dex_withdraw_liquidity')).toHaveLength(0);
  });
});
