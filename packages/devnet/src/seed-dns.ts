import { randomBytes } from 'node:crypto';
import { Address, internal, toNano, type MessageRelaxed } from '@ton/core';
import { changeDnsRecordBody, dnsItemInit, dnsRecord } from './contracts/dns.js';

/** What the seed needs to act as a wallet: send a transfer from it, and seal a block. */
export interface SeedSender<A> {
  send(from: A, out: MessageRelaxed[]): Promise<void>;
  produceBlock(): Promise<unknown>;
  address(actor: A): Address;
}

export interface DnsSeedSummary {
  /** Devnet stand-in for the `.ton` root collection the items name (no contract lives there). */
  collection: Address;
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
 * Two `.ton` domains with records: each owner deploys its item (the mainnet item code, initialised as after a won
 * auction) with a first `change_dns_record` setting its wallet record, then sets the others: alice's domain gets a
 * site ADNL and a storage bag, bob's a next resolver. Labels carry the run's tag so that runs do not collide.
 */
export async function seedDns<A>(ctx: SeedSender<A>, alice: A, bob: A, tag: string): Promise<DnsSeedSummary> {
  const collection = new Address(0, Buffer.from('dns-devnet-root-collection-stand'.padEnd(32, '-')));
  const now = Math.floor(Date.now() / 1000);
  const aliceAddress = ctx.address(alice);
  const bobAddress = ctx.address(bob);
  const aliceItem = dnsItemInit({ collection, label: `alice-${tag}`, owner: aliceAddress, lastFillUpTime: now });
  const bobItem = dnsItemInit({ collection, label: `bob-${tag}`, owner: bobAddress, lastFillUpTime: now });
  const siteAdnl = randomBytes(32);
  const storageBag = randomBytes(32);

  await ctx.send(alice, [
    internal({ to: aliceItem.address, value: toNano('0.5'), bounce: false, init: aliceItem.init, body: changeDnsRecordBody('wallet', dnsRecord.wallet(aliceAddress)) }),
  ]);
  await ctx.send(bob, [
    internal({ to: bobItem.address, value: toNano('0.5'), bounce: false, init: bobItem.init, body: changeDnsRecordBody('wallet', dnsRecord.wallet(bobAddress)) }),
  ]);
  await ctx.produceBlock();
  await ctx.send(alice, [
    internal({ to: aliceItem.address, value: toNano('0.05'), bounce: true, body: changeDnsRecordBody('site', dnsRecord.siteAdnl(siteAdnl)) }),
    internal({ to: aliceItem.address, value: toNano('0.05'), bounce: true, body: changeDnsRecordBody('storage', dnsRecord.storageBag(storageBag)) }),
  ]);
  await ctx.send(bob, [
    internal({ to: bobItem.address, value: toNano('0.05'), bounce: true, body: changeDnsRecordBody('dns_next_resolver', dnsRecord.nextResolver(bobAddress)) }),
  ]);
  await ctx.produceBlock();
  return {
    collection,
    items: [
      { address: aliceItem.address, domain: `alice-${tag}.ton`, owner: aliceAddress, wallet: aliceAddress, siteAdnl: siteAdnl.toString('hex'), storageBagId: storageBag.toString('hex'), nextResolver: null },
      { address: bobItem.address, domain: `bob-${tag}.ton`, owner: bobAddress, wallet: bobAddress, siteAdnl: null, storageBagId: null, nextResolver: bobAddress },
    ],
  };
}
