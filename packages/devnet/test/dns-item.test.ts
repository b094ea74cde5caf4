/**
 * The devnet's own `.ton` item (contracts/dns-item.fc) against mainnet's recorded item code, side by side in a plain
 * sandbox with its clock moved by hand: the same messages from the same senders leave both in the same state
 * (owner, auction, records, last fill-up) and produce the same exit codes and value flows. Only the devnet's
 * `registered` start is its own. A treasury plays the collection for both (the items check only the sender).
 */
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { Address, beginCell, Cell, contractAddress, toNano, type Transaction } from '@ton/core';
import { decodeDnsItemData } from '@tongate/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { dns, salesContractCodes } from '../src/index.js';

const CODES = { devnet: dns.dnsItemCode(), mainnet: Cell.fromBase64(salesContractCodes.dnsItemCodeBoc) };
const T0 = 1_790_000_000;

const exitCodes = (txs: Transaction[]) =>
  txs.map((t) =>
    t.description.type === 'generic' && t.description.computePhase.type === 'vm' ? t.description.computePhase.exitCode : null,
  );

describe("the devnet .ton item behaves as mainnet's", () => {
  let bc: Blockchain;
  let collection: SandboxContract<TreasuryContract>;
  let alice: SandboxContract<TreasuryContract>;
  let bob: SandboxContract<TreasuryContract>;
  let carol: SandboxContract<TreasuryContract>;

  beforeAll(async () => {
    bc = await Blockchain.create();
    bc.now = T0;
    collection = await bc.treasury('collection');
    alice = await bc.treasury('alice');
    bob = await bc.treasury('bob');
    carol = await bc.treasury('carol');
  });

  const itemOf = (code: Cell, label: string) => {
    const data = beginCell().storeUint(dns.dnsItemIndex(label), 256).storeAddress(collection.address).endCell();
    return { address: contractAddress(0, { code, data }), init: { code, data } };
  };
  const stateOf = async (address: Address, base: number) => {
    const c = await bc.getContract(address);
    const s = c.accountState;
    if (s?.type !== 'active') throw new Error('not active');
    const item = decodeDnsItemData(s.state.data!);
    // Times relative to the run's start: the two runs happen one after the other on one clock.
    return {
      owner: item.owner?.toRawString() ?? null,
      auction: item.auction && {
        ...item.auction,
        maxBidAddress: item.auction.maxBidAddress?.toRawString(),
        auctionEndTime: item.auction.auctionEndTime - base,
      },
      records: { ...item.records, other: [...item.records.other.keys()] },
      lastFillUpTime: item.lastFillUpTime - base,
      domain: item.domain,
    };
  };

  it('auction, outbid, claim, records, transfer: same states and exit codes', async () => {
    const results: Record<string, unknown[]> = { devnet: [], mainnet: [] };
    let base = T0;
    for (const [name, code] of Object.entries(CODES)) {
      base += 100_000;
      bc.now = base;
      const label = `same-${name}`;
      const item = itemOf(code, label);
      const log = results[name];
      const step = async (what: string, r: { transactions: Transaction[] }) => {
        // The item's own transactions; addresses are the same for both runs except the item's.
        const mine = r.transactions.filter(
          (t) => t.inMessage?.info.dest instanceof Address && (t.inMessage.info.dest as Address).equals(item.address),
        );
        log.push({
          what,
          exit: exitCodes(mine),
          state: await stateOf(item.address, base).then((s) => ({ ...s, domain: s.domain.replace(name, 'X') })),
        });
      };
      // The collection deploys it with the opener (alice) and her value as the first bid.
      await step(
        'open',
        await collection.send({
          to: item.address,
          value: toNano('2'),
          init: item.init,
          body: beginCell().storeAddress(alice.address).storeRef(beginCell().storeStringTail(label).endCell()).endCell(),
        }),
      );
      bc.now = base + 100;
      await step('low bid', await bob.send({ to: item.address, value: toNano('2'), bounce: true }));
      await step('outbid', await bob.send({ to: item.address, value: toNano('3'), bounce: true }));
      await step(
        'owner-only record in auction',
        await bob.send({
          to: item.address,
          value: toNano('0.1'),
          bounce: true,
          body: dns.changeDnsRecordBody('wallet', dns.dnsRecord.wallet(bob.address)),
        }),
      );
      bc.now = base + 3600 + 50; // a bid in the last hour extended it to an hour after that bid
      await step('late bid', await carol.send({ to: item.address, value: toNano('4'), bounce: true }));
      bc.now = base + 3600 + 50 + 3601;
      await step(
        'claim with a record',
        await carol.send({
          to: item.address,
          value: toNano('0.1'),
          bounce: true,
          body: dns.changeDnsRecordBody('wallet', dns.dnsRecord.wallet(carol.address)),
        }),
      );
      await step(
        'not the owner',
        await alice.send({
          to: item.address,
          value: toNano('0.1'),
          bounce: true,
          body: dns.changeDnsRecordBody('site', dns.dnsRecord.siteAdnl(Buffer.alloc(32, 1))),
        }),
      );
      await step(
        'delete record',
        await carol.send({ to: item.address, value: toNano('0.1'), bounce: true, body: dns.changeDnsRecordBody('wallet', null) }),
      );
      await step('fill up', await carol.send({ to: item.address, value: toNano('0.1'), bounce: true }));
      const transfer = beginCell()
        .storeUint(0x5fcc3d14, 32)
        .storeUint(1, 64)
        .storeAddress(alice.address)
        .storeAddress(carol.address)
        .storeBit(false)
        .storeCoins(toNano('0.01'))
        .storeBit(false)
        .endCell();
      await step('transfer', await carol.send({ to: item.address, value: toNano('0.5'), bounce: true, body: transfer }));
      await step(
        'second registration refunded',
        await collection.send({
          to: item.address,
          value: toNano('1'),
          body: beginCell().storeAddress(bob.address).storeRef(beginCell().storeStringTail(label).endCell()).endCell(),
        }),
      );
    }
    const plain = (v: unknown) =>
      JSON.parse(JSON.stringify(v, (_k, x) => (x instanceof Address ? x.toRawString() : typeof x === 'bigint' ? x.toString() : x)));
    expect(plain(results.devnet)).toEqual(plain(results.mainnet));
    // And the run did what it says: carol won, claimed, and handed it to alice.
    expect(results.devnet.at(-1)).toMatchObject({ state: { owner: alice.address.toRawString(), auction: null } });
  });

  it('get-methods answer alike', async () => {
    bc.now = T0 + 1_000_000;
    const answers: Record<string, unknown> = {};
    for (const [name, code] of Object.entries(CODES)) {
      const item = itemOf(code, `get-${name}`);
      await collection.send({
        to: item.address,
        value: toNano('2'),
        init: item.init,
        body: beginCell()
          .storeAddress(alice.address)
          .storeRef(beginCell().storeStringTail(`get-${name}`).endCell())
          .endCell(),
      });
      const c = bc.provider(item.address);
      const nft = (await c.get('get_nft_data', [])).stack;
      const auction = (await c.get('get_auction_info', [])).stack;
      const resolve = (
        await c.get('dnsresolve', [
          { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
          { type: 'int', value: 0n },
        ])
      ).stack;
      answers[name] = {
        init: nft.readBigNumber(),
        index: nft.readBigNumber() === dns.dnsItemIndex(`get-${name}`),
        collection: nft.readAddress().toRawString(),
        owner: nft.readAddressOpt(),
        auction: [auction.readAddress().toRawString(), auction.readBigNumber(), auction.readBigNumber() - BigInt(T0 + 1_000_000)],
        lastFillUp: (await c.get('get_last_fill_up_time', [])).stack.readNumber() - (T0 + 1_000_000),
        domain: (await c.get('get_domain', [])).stack.readCell().beginParse().loadStringTail().replace(name, 'X'),
        resolvedBits: resolve.readNumber(),
      };
    }
    expect(answers.devnet).toEqual(answers.mainnet);
  });
});
