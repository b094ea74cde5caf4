/**
 * The indexer on a devnet whose basechain runs in shards that split and merge while it indexes: every shard block
 * is written once (the devnet seals one block per shard per round, so every basechain block is a shard top of
 * exactly one masterchain block), with the split and merge flags of its header, and traces whose messages cross
 * shards, landing blocks apart, come out whole and complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import { openIndexStore, withDomainTables, type TracesTables } from '@tongate/read-model';
import type { Store } from '@tongate/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDerivations, Indexer } from '../src/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tongate-shards-'));
let devnet: Devnet;
let store: Store;
/**
 * Bounced transfers, faucet → nonexistent accounts → bounces → faucet: the external message hash, and how many
 * basechain shards the block holding the faucet's transaction had.
 */
const bounced: { hash: string; shards: number }[] = [];

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  store = await openIndexStore({ dataDir: dir });
  await store.migrate();
  const indexer = new Indexer({ chain: devnet, db: store.chain('mainnet'), pollMs: 10, retryMs: 10, derivations: defaultDerivations() });
  await indexer.start();
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const signer = signerFromSeed(devnet.faucet.secretKey);
  let seqno = 0;
  let n = 0;
  const send = async () => {
    // One receiver in each quarter of the address space, all bounceable and nonexistent: each bounces back.
    const messages = [0x10, 0x50, 0x90, 0xd0].map((first) =>
      internal({ to: new Address(0, Buffer.alloc(32, first + (n++ % 16))), value: toNano('0.1'), bounce: true, body: `shards ${n}` }),
    );
    const { hash } = await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, messages));
    const sealed = await devnet.produceBlock();
    bounced.push({ hash: hash.toString('base64'), shards: (await devnet.getShards(sealed.seqno)).length });
  };
  // Two shards, then four, then one again, with transfers in flight through the splits and merges.
  for (const shards of [2, 4, 4, 1, 1, 2]) {
    await devnet.setShards(shards);
    await send();
    await devnet.produceBlock();
  }
  const last = await devnet.settle();
  await indexer.waitFor(last.seqno, 60_000);
  await indexer.stop();
}, 120_000);

afterAll(async () => {
  await store?.close();
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('indexing a sharded devnet', () => {
  it('writes every shard block once, with its split and merge flags', async () => {
    const db = store.chain('mainnet');
    const last = (await devnet.getMasterchainInfo()).last.seqno;
    const expected: string[] = [];
    const layouts = new Set<number>();
    for (let s = 0; s <= last; s++) {
      const tops = await devnet.getShards(s);
      layouts.add(tops.length);
      for (const top of tops) {
        const h = await devnet.getBlockHeader(top);
        expected.push(`${top.shard}:${top.seqno}:${s}:${h.afterSplit}:${h.afterMerge}:${h.beforeSplit}:${top.rootHash.toString('base64')}`);
      }
    }
    expect([...layouts].sort()).toEqual([1, 2, 4]);
    const rows = await db
      .selectFrom('blocks')
      .select(['shard', 'seqno', 'mc_block_seqno', 'after_split', 'after_merge', 'before_split', 'root_hash'])
      .where('workchain', '=', 0)
      .execute();
    const written = rows.map(
      (r) => `${BigInt(r.shard)}:${r.seqno}:${r.mc_block_seqno}:${r.after_split}:${r.after_merge}:${r.before_split}:${r.root_hash}`,
    );
    expect(written.sort()).toEqual(expected.sort());
    expect(rows.some((r) => r.after_split) && rows.some((r) => r.after_merge) && rows.some((r) => r.before_split)).toBe(true);
  });

  it('assembles each trace across shards and blocks, complete', async () => {
    const db = withDomainTables<TracesTables>(store.chain('mainnet'));
    expect(bounced.filter((b) => b.shards > 1).length).toBeGreaterThanOrEqual(3);
    expect(bounced.some((b) => b.shards === 1)).toBe(true);
    for (const { hash, shards } of bounced) {
      const trace = await db.selectFrom('traces').selectAll().where('external_hash', '=', hash).executeTakeFirstOrThrow();
      // The faucet's transaction, four receivers (one in each quarter of the address space), four bounces back.
      expect(trace).toMatchObject({ state: 'complete', transactions: 9, messages: 8, pending_messages: 0 });
      // In one shard the whole trace runs in one block; in several, the receivers in other shards a block later and
      // their bounces a block after that (or at once, when a merge has put them in the faucet's shard by then).
      if (shards === 1) expect(trace.mc_seqno_end).toBe(trace.mc_seqno_start);
      else expect([trace.mc_seqno_start + 1, trace.mc_seqno_start + 2]).toContain(trace.mc_seqno_end);
      const members = await db.selectFrom('trace_transactions').select('tx_hash').where('trace_id', '=', trace.trace_id).execute();
      expect(members).toHaveLength(9);
    }
  });
});
