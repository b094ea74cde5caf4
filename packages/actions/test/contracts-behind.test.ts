import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { classifyTrace, toV3Action, type AccountInterfaces, type ClassifiedAction, type TraceInput } from '../src/index.js';
import { actionValidator } from './spec.js';
import { addr, syntheticTrace } from './synthetic.js';

// Protocol actions only where the protocol's contracts take part: opcodes shared between protocols are read by
// the receiver's interface or by the protocol's own message layout, never alone.
const validate = actionValidator();
const WALLET = addr(1);
const ext = { account: WALLET, body: beginCell().storeUint(0x12345678, 32).endCell() };

function classify(input: TraceInput): ClassifiedAction[] {
  const actions = classifyTrace(input);
  for (const a of actions) expect(validate(toV3Action(a, { includeAccounts: true })), JSON.stringify(validate.errors)).toBe(true);
  return actions;
}
const types = (actions: ClassifiedAction[]) =>
  actions
    .filter((a) => !a.ancestor_type)
    .map((a) => a.type)
    .sort();
const v3 = (a: ClassifiedAction | undefined) => toV3Action(a!).details!;
const comment = (text: string) => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

describe('opcodes that several protocols use', () => {
  it('op 0x1 to an NFT collection deploying an item is a mint, not an EVAA supply', () => {
    const collection = addr(20);
    const item = addr(21);
    // TEP-62 reference collection: deploy#1 query_id index amount ^content; the item is deployed with owner + content
    const mint = beginCell()
      .storeUint(1, 32)
      .storeUint(0, 64)
      .storeUint(0, 64)
      .storeCoins(50_000_000n)
      .storeRef(beginCell().endCell())
      .endCell();
    const init = beginCell().storeAddress(Address.parseRaw(WALLET)).storeRef(beginCell().endCell()).endCell();
    const actions = classify(
      syntheticTrace([ext, { account: collection, from: 0, body: mint }, { account: item, from: 1, body: init, deploys: true }], {
        [item]: { NftItem: { collection_address: collection, index: 0 } },
      }),
    );
    expect(types(actions)).toEqual(['nft_mint']);
  });

  it('an EVAA supply needs the user contract answering with the user header; a bare op 0x1 is a call', () => {
    const master = addr(30);
    const user = addr(31);
    const supply = beginCell()
      .storeUint(1, 32)
      .storeUint(0, 64)
      .storeUint(0, 2)
      .storeUint(5_000_000_000n, 64)
      .storeAddress(Address.parseRaw(WALLET))
      .endCell();
    const userCall = beginCell().storeCoins(4).storeMaybeRef(null).storeUint(0, 2).storeUint(0x11, 32).storeUint(0, 64).endCell();
    const success = beginCell().storeUint(0x11a, 32).storeUint(0, 64).endCell();
    const real = classify(
      syntheticTrace([
        ext,
        { account: master, from: 0, body: supply },
        { account: user, from: 1, body: userCall },
        { account: master, from: 2, body: success },
      ]),
    );
    expect(types(real)).toEqual(['evaa_supply']);
    const unrelated = classify(
      syntheticTrace([ext, { account: master, from: 0, body: supply }, { account: user, from: 1, body: comment('hello') }]),
    );
    expect(types(unrelated)).toEqual(['call_contract', 'ton_transfer']);
  });

  it('comments "d" and "w" are staking only at a TON Foundation nominator pool', () => {
    const pool = addr(40, -1);
    const d = classify(
      syntheticTrace([ext, { account: pool, from: 0, body: comment('d'), value: 10_001_000_000_000n }], {
        [pool]: { NominatorPool: { address: pool } },
      }),
    );
    expect(types(d)).toEqual(['stake_deposit']);
    expect(v3(d[0])).toMatchObject({ provider: 'nominator', stake_holder: WALLET, pool, amount: '10001000000000' });
    const elsewhere = classify(syntheticTrace([ext, { account: addr(41), from: 0, body: comment('d') }]));
    expect(types(elsewhere)).toEqual(['ton_transfer']);
  });
});

describe('single-nominator pools', () => {
  const pool = addr(50, -1);
  const kinds = { [pool]: { SingleNominatorPool: { address: pool, owner: WALLET } } };

  it("the owner's transfer is a deposit, withdraw#1000 a withdrawal paid to the owner; others' transfers are not stake", () => {
    const deposit = classify(syntheticTrace([ext, { account: pool, from: 0, value: 15_000_000_000_000n }], kinds));
    expect(types(deposit)).toEqual(['stake_deposit']);
    expect(v3(deposit[0])).toMatchObject({ provider: 'single_nominator', stake_holder: WALLET, pool, amount: '15000000000000' });

    const withdraw = beginCell().storeUint(0x1000, 32).storeUint(2, 64).storeCoins(20_000_000_000n).endCell();
    const w = classify(
      syntheticTrace(
        [ext, { account: pool, from: 0, body: withdraw, value: 500_000_000n }, { account: WALLET, from: 1, value: 20_400_000_000n }],
        kinds,
      ),
    );
    expect(types(w)).toEqual(['stake_withdrawal']);
    expect(v3(w[0])).toMatchObject({ provider: 'single_nominator', stake_holder: WALLET, pool, amount: '20000000000' });
    expect(w[0].tx_hashes).toHaveLength(3);

    const stranger = addr(51);
    const topUp = classify(
      syntheticTrace(
        [
          { account: stranger, body: ext.body },
          { account: pool, from: 0, value: 1_000_000_000n },
        ],
        kinds,
      ),
    );
    expect(types(topUp)).toEqual(['ton_transfer']);
  });
});

describe('auctions', () => {
  it('a plain transfer to a genuine .ton DNS item is a bid on its auction; one that deploys a contract is no bid', () => {
    const item = addr(60);
    const collection = addr(61);
    const bid = classify(
      syntheticTrace([ext, { account: item, from: 0, value: 2_000_000_000n }], {
        [item]: { DnsItem: { address: item, collection_address: collection } },
      }),
    );
    expect(types(bid)).toEqual(['auction_bid']);
    expect(v3(bid[0])).toMatchObject({ bidder: WALLET, auction: item, nft_item: item, nft_collection: collection, amount: '2000000000' });

    const auction = addr(62);
    const deploy = classify(
      syntheticTrace([ext, { account: auction, from: 0, value: 50_000_000n, deploys: true }], {
        [auction]: { NftAuction: { nft_addr: addr(63) } },
      }),
    );
    expect(types(deploy)).not.toContain('auction_bid');
  });
});

describe('DNS records', () => {
  it('change_dns_record carries its value as a reference (no Maybe bit), as the item contract reads it', () => {
    const item = addr(70);
    const record = beginCell()
      .storeUint(0xba93, 16)
      .storeAddress(Address.parseRaw(addr(71)))
      .endCell();
    const key = 0x19f02441ee588fdb26ee24b2568dd035c3c9206e11ab979be62e55558a1d17ffn;
    const body = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(0, 64).storeUint(key, 256).storeRef(record).endCell();
    const actions = classify(syntheticTrace([ext, { account: item, from: 0, body }]));
    expect(types(actions)).toEqual(['change_dns']);
    expect(v3(actions[0])).toMatchObject({
      key: key.toString(16),
      value: { sum_type: 'DNSNextResolver', dns_next_resolver_address: addr(71) },
    });
  });
});

describe('listings', () => {
  it("the seller's NFT handed to a getgems sale holding it is nft_put_on_sale, the transfer nested", () => {
    const item = addr(80);
    const sale = addr(81);
    const collection = addr(82);
    const transfer = beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(0, 64)
      .storeAddress(Address.parseRaw(sale))
      .storeAddress(Address.parseRaw(WALLET))
      .storeBit(false)
      .storeCoins(10_000_000n)
      .storeBit(false)
      .endCell();
    const actions = classify(
      syntheticTrace([ext, { account: item, from: 0, body: transfer }], {
        [item]: { NftItem: { collection_address: collection, index: 3 } },
        [sale]: { NftSale: { nft_address: item, nft_owner_address: WALLET, full_price: '5000000000', marketplace_address: addr(83) } },
      }),
    );
    expect(types(actions)).toEqual(['nft_put_on_sale']);
    expect(v3(actions.find((a) => a.type === 'nft_put_on_sale'))).toMatchObject({
      owner: WALLET,
      nft_item: item,
      nft_collection: collection,
      sale_address: sale,
      listing_address: sale,
      full_price: '5000000000',
    });
    expect(actions.find((a) => a.type === 'nft_transfer')?.ancestor_type).toEqual(['nft_put_on_sale']);
  });
});

describe('sale and auction contracts ending a trade', () => {
  const item = addr(90);
  const collection = addr(91);
  const transferTo = (owner: string) =>
    beginCell()
      .storeUint(0x5fcc3d14, 32)
      .storeUint(0, 64)
      .storeAddress(Address.parseRaw(owner))
      .storeAddress(Address.parseRaw(owner))
      .storeBit(false)
      .storeCoins(0n)
      .storeBit(false)
      .endCell();

  it('cancel#3 to a sale holding the item: nft_cancel_sale with the transfer back nested; at another contract it is a call', () => {
    const sale = addr(92);
    const cancel = beginCell().storeUint(3, 32).storeUint(0, 64).endCell();
    const steps = [ext, { account: sale, from: 0, body: cancel }, { account: item, from: 1, body: transferTo(WALLET) }];
    const kinds = { [item]: { NftItem: { collection_address: collection, index: 1 } } };
    const actions = classify(syntheticTrace(steps, { ...kinds, [sale]: { NftSale: { nft_address: item, nft_owner_address: WALLET } } }));
    expect(types(actions)).toEqual(['nft_cancel_sale']);
    expect(v3(actions.find((a) => a.type === 'nft_cancel_sale'))).toMatchObject({
      owner: WALLET,
      sale_address: sale,
      nft_item: item,
      nft_collection: collection,
    });
    expect(types(classify(syntheticTrace(steps, kinds)))).not.toContain('nft_cancel_sale');
  });

  it('"finish" to an auction: nft_finish_auction; "cancel": nft_cancel_auction', () => {
    const auction = addr(93);
    const kinds: Record<string, AccountInterfaces> = {
      [item]: { NftItem: { collection_address: collection, index: 1 } },
      [auction]: { NftAuction: { nft_addr: item, nft_owner: WALLET } },
    };
    const finish = classify(
      syntheticTrace(
        [ext, { account: auction, from: 0, body: comment('finish') }, { account: item, from: 1, body: transferTo(addr(94)) }],
        kinds,
      ),
    );
    expect(types(finish)).toEqual(['nft_finish_auction']);
    expect(v3(finish.find((a) => a.type === 'nft_finish_auction'))).toMatchObject({
      owner: addr(94),
      auction_address: auction,
      nft_item: item,
    });
    const cancel = classify(
      syntheticTrace(
        [ext, { account: auction, from: 0, body: comment('cancel') }, { account: item, from: 1, body: transferTo(WALLET) }],
        kinds,
      ),
    );
    expect(types(cancel)).toEqual(['nft_cancel_auction']);
  });

  it('a won .ton auction claimed: the item sends auction_fill_up#370fec51 to its collection (dns_purchase)', () => {
    const dnsItem = addr(95);
    const fillUp = beginCell().storeUint(0x370fec51, 32).storeUint(0, 64).endCell();
    const actions = classify(
      syntheticTrace(
        [ext, { account: dnsItem, from: 0, body: comment('claim') }, { account: collection, from: 1, body: fillUp, value: 7_000_000_000n }],
        {
          [dnsItem]: { DnsItem: { collection_address: collection }, NftItem: { collection_address: collection, index: 5 } },
        },
      ),
    );
    expect(types(actions)).toEqual(['dns_purchase']);
    expect(v3(actions[0])).toMatchObject({ new_owner: WALLET, nft_item: dnsItem, nft_collection: collection, price: '7000000000' });
  });
});

describe('outbids', () => {
  it('a higher bid on a .ton item returns the previous bid with outbid_notification: auction_bid and auction_outbid', () => {
    const item = addr(100);
    const collection = addr(101);
    const previous = addr(102);
    const notice = beginCell().storeUint(0x557cea20, 32).storeUint(0, 64).endCell();
    const actions = classify(
      syntheticTrace(
        [ext, { account: item, from: 0, value: 3_000_000_000n }, { account: previous, from: 1, body: notice, value: 2_000_000_000n }],
        {
          [item]: { DnsItem: { address: item, collection_address: collection } },
        },
      ),
    );
    expect(types(actions)).toEqual(['auction_bid', 'auction_outbid']);
    expect(v3(actions.find((a) => a.type === 'auction_outbid'))).toMatchObject({
      bidder: previous,
      new_bidder: WALLET,
      amount: '2000000000',
      auction: item,
      nft_item: item,
    });
  });
});

describe('tgBTC', () => {
  it("an external-out event with the teleport's mint opcode, outside the teleport's mint chain, is no tgBTC action", () => {
    const log = beginCell().storeUint(0x77a80ef3, 32).storeCoins(1000n).storeAddress(Address.parseRaw(WALLET)).storeUint(1, 256).endCell();
    const actions = classify(
      syntheticTrace([ext, { account: addr(110), from: 0, body: beginCell().storeUint(0xe42a879b, 32).endCell(), logs: [log] }]),
    );
    expect(types(actions).filter((t) => t.startsWith('tgbtc'))).toEqual([]);
  });
});

describe('nominator pool payouts', () => {
  it('process_withdraw_requests#2 at a nominator pool: each payout is a stake_withdrawal_request; op 2 elsewhere is a call', () => {
    const pool = addr(120, -1);
    const nominator = addr(121);
    const process = beginCell().storeUint(2, 32).storeUint(0, 64).endCell();
    const steps = [ext, { account: pool, from: 0, body: process }, { account: nominator, from: 1, value: 10_000_000_000_000n }];
    const actions = classify(syntheticTrace(steps, { [pool]: { NominatorPool: { address: pool } } }));
    expect(types(actions)).toEqual(['call_contract', 'stake_withdrawal_request']);
    expect(v3(actions.find((a) => a.type === 'stake_withdrawal_request'))).toMatchObject({
      provider: 'nominator',
      stake_holder: nominator,
      pool,
    });
    expect(types(classify(syntheticTrace(steps)))).toEqual(['call_contract', 'ton_transfer']);
  });
});

describe('cocoon', () => {
  it('an owner request to a client contract is a cocoon action only with the client answering (request to its proxy and excesses)', () => {
    const client = addr(130);
    const owner = addr(132);
    const refund = beginCell().storeUint(0xfafa6cc1, 32).storeUint(0, 64).storeAddress(Address.parseRaw(owner)).endCell();
    const lone = classify(syntheticTrace([ext, { account: client, from: 0, body: refund }]));
    expect(types(lone)).toEqual(['call_contract']);
    const answered = classify(
      syntheticTrace([
        ext,
        { account: client, from: 0, body: refund },
        { account: addr(131), from: 1, body: beginCell().storeUint(0x65448ff4, 32).storeUint(0, 64).endCell() },
        { account: WALLET, from: 1, body: beginCell().storeUint(0x2565934c, 32).storeUint(0, 64).endCell() },
      ]),
    );
    expect(types(answered)).toEqual(['cocoon_client_request_refund']);
    // the owner is the request's excesses address, not whoever delivered the request
    expect(answered.find((a) => a.type === 'cocoon_client_request_refund')?.source).toBe(owner);
  });
});

describe('jetton mints', () => {
  const minter = addr(140);
  const master = beginCell()
    .storeUint(0x178d4519, 32)
    .storeUint(0, 64)
    .storeCoins(500n)
    .storeAddress(null)
    .storeAddress(null)
    .storeCoins(0n)
    .storeBit(false)
    .endCell();
  const mint = (op: number, withMaster = true) => {
    const b = beginCell().storeUint(op, 32).storeUint(0, 64).storeAddress(Address.parseRaw(WALLET)).storeCoins(50_000_000n);
    return (withMaster ? b.storeRef(master) : b).endCell();
  };

  it('a mint the minter refuses is a failed jetton_mint to the requested address; a body without the internal_transfer is no mint', () => {
    const refused = classify(syntheticTrace([ext, { account: minter, from: 0, body: mint(0x15), aborted: true, exitCode: 73 }]));
    expect(types(refused)).toEqual(['jetton_mint']);
    expect(refused[0].success).toBe(false);
    expect(v3(refused[0])).toMatchObject({ receiver: WALLET, asset: minter, amount: '500', ton_amount: '50000000' });
    expect(types(classify(syntheticTrace([ext, { account: minter, from: 0, body: mint(0x15, false) }])))).toEqual(['call_contract']);
  });
});

describe('jvault', () => {
  it('unstake opcodes are jvault actions only at a stake wallet (its data names the pool, or it asks its pool to update rewards)', () => {
    const wallet = addr(150);
    const unstake = beginCell().storeUint(0x499a9262, 32).storeUint(0, 64).storeCoins(1000n).endCell();
    expect(types(classify(syntheticTrace([ext, { account: wallet, from: 0, body: unstake }])))).toEqual(['call_contract']);
    const known = classify(
      syntheticTrace([ext, { account: wallet, from: 0, body: unstake }], { [wallet]: { data_boc: { pool: addr(151) } } }),
    );
    expect(types(known)).toEqual(['jvault_unstake']);
  });
});
