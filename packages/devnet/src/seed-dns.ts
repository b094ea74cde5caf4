import { randomBytes } from 'node:crypto';
import { Address, internal, toNano, type MessageRelaxed } from '@ton/core';
import { changeDnsRecordBody, devnetDns, dnsItemAddress, dnsRecord, registerDomainBody } from './contracts/dns.js';

/** What the seed needs to act as a wallet: send a transfer from it, and seal a block. */
export interface SeedSender<A> {
  send(from: A, out: MessageRelaxed[]): Promise<void>;
  produceBlock(): Promise<unknown>;
  address(actor: A): Address;
}

export interface DnsSeedSummary {
  /** The devnet's `.ton` collection (the root resolver of config param 4 names it); it deployed the items. */
  collection: Address;
  /** The root DNS resolver (masterchain) config param 4 names. */
  root: Address;
  items: {
    address: Address;
    domain: string;
    owner: Address;
    wallet: Address | null;
    siteAdnl: string | null;
    storageBagId: string | null;
    nextResolver: Address | null;
  }[];
}

/**
 * Two `.ton` domains with records, deployed by the devnet's `.ton` collection as mainnet's deploys its items (so they
 * are genuine): the faucet, the collection's admin, registers `alice-<tag>` to alice and `bob-<tag>` to bob; each
 * owner sets its wallet record, then alice a site ADNL and a storage bag, bob a next resolver. Labels carry the
 * run's tag so that runs do not collide.
 */
export async function seedDns<A>(ctx: SeedSender<A>, registrar: A, alice: A, bob: A, tag: string): Promise<DnsSeedSummary> {
  const dns = devnetDns(ctx.address(registrar));
  const collection = dns.collection.address;
  const aliceAddress = ctx.address(alice);
  const bobAddress = ctx.address(bob);
  const aliceItem = { address: dnsItemAddress(collection, `alice-${tag}`) };
  const bobItem = { address: dnsItemAddress(collection, `bob-${tag}`) };
  const siteAdnl = randomBytes(32);
  const storageBag = randomBytes(32);

  // The collection forwards the value to the item, which keeps mainnet's 1 TON reserve.
  await ctx.send(registrar, [
    internal({ to: collection, value: toNano('1.2'), bounce: true, body: registerDomainBody(`alice-${tag}`, aliceAddress) }),
    internal({ to: collection, value: toNano('1.2'), bounce: true, body: registerDomainBody(`bob-${tag}`, bobAddress) }),
  ]);
  await ctx.produceBlock();
  await ctx.send(alice, [
    internal({
      to: aliceItem.address,
      value: toNano('0.05'),
      bounce: true,
      body: changeDnsRecordBody('wallet', dnsRecord.wallet(aliceAddress)),
    }),
  ]);
  await ctx.send(bob, [
    internal({
      to: bobItem.address,
      value: toNano('0.05'),
      bounce: true,
      body: changeDnsRecordBody('wallet', dnsRecord.wallet(bobAddress)),
    }),
  ]);
  await ctx.produceBlock();
  await ctx.send(alice, [
    internal({
      to: aliceItem.address,
      value: toNano('0.05'),
      bounce: true,
      body: changeDnsRecordBody('site', dnsRecord.siteAdnl(siteAdnl)),
    }),
    internal({
      to: aliceItem.address,
      value: toNano('0.05'),
      bounce: true,
      body: changeDnsRecordBody('storage', dnsRecord.storageBag(storageBag)),
    }),
  ]);
  await ctx.send(bob, [
    internal({
      to: bobItem.address,
      value: toNano('0.05'),
      bounce: true,
      body: changeDnsRecordBody('dns_next_resolver', dnsRecord.nextResolver(bobAddress)),
    }),
  ]);
  await ctx.produceBlock();
  return {
    collection,
    root: dns.root.address,
    items: [
      {
        address: aliceItem.address,
        domain: `alice-${tag}.ton`,
        owner: aliceAddress,
        wallet: aliceAddress,
        siteAdnl: siteAdnl.toString('hex'),
        storageBagId: storageBag.toString('hex'),
        nextResolver: null,
      },
      {
        address: bobItem.address,
        domain: `bob-${tag}.ton`,
        owner: bobAddress,
        wallet: bobAddress,
        siteAdnl: null,
        storageBagId: null,
        nextResolver: bobAddress,
      },
    ],
  };
}
