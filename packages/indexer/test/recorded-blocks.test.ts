/**
 * The indexer's reading and row building on real mainnet blocks: every whole block recorded in @tongate/testdata is
 * served as recorded by a liteserver, read by the `checking` liteserver backend over ADNL (the indexer's production
 * source), walked by the shard walk and turned into transaction and message rows; the rows are compared with the
 * values recorded beside each block (transactions: hash, lt, previous transaction, time, statuses, out-message
 * count; messages: in and out counts, the imported messages the block names; block ids).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cell } from '@ton/core';
import { ChainError, type BlockIdExt, type ChainSource, type ChainTransaction, type MasterchainInfo } from '@tongate/chain';
import { LiteserverChain, parseGlobalConfig } from '@tongate/liteserver';
import { ChainLiteServer, RecordedBlocks } from '@tongate/liteserver/server';
import { fixturePath, recordedBlocks } from '@tongate/testdata';
import { transactionRows } from '@tongate/read-model';
import { newShardBlocks } from '../src/index.js';

const read = (f: string) => readFileSync(fixturePath(f));
const json = (f: string) => JSON.parse(read(f).toString('utf8'));
const signedShard = (hex: string) => BigInt.asIntN(64, BigInt('0x' + hex));
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

const blocks = recordedBlocks.map((f) => {
  const bytes = read(f.file);
  const id: BlockIdExt = {
    workchain: f.workchain,
    shard: signedShard(f.shard),
    seqno: f.seqno,
    rootHash: Buffer.from(f.rootHash, 'hex'),
    // Where the chain's file hash was not recorded, the file's sha256 stands in (nothing here reads it).
    fileHash: f.fileHash ? Buffer.from(f.fileHash, 'hex') : createHash('sha256').update(bytes).digest(),
  };
  return { f, id, block: Cell.fromBoc(bytes)[0] };
});
const master = blocks.find((b) => b.id.workchain === -1)!;
const ZERO_STATE: BlockIdExt = {
  workchain: -1,
  shard: signedShard('8000000000000000'),
  seqno: 0,
  rootHash: Buffer.from('17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569', 'hex'),
  fileHash: Buffer.from('5e994fcf4d425c0a6ce6a792594b7173205f740a39cd56f537defd28b48a0f6e', 'hex'),
};

describe('recorded mainnet blocks through the liteserver backend into indexer rows', () => {
  let server: ChainLiteServer;
  let chain: LiteserverChain;

  beforeAll(async () => {
    // The server's head is the recorded masterchain block, which the client's config trusts (init_block).
    const info: MasterchainInfo = { last: master.id, init: ZERO_STATE, stateRootHash: Buffer.alloc(32), lastUtime: 0 };
    const notHere = async () => {
      throw new ChainError('not_found', 'not in the recorded blocks');
    };
    const source = new Proxy({} as ChainSource, {
      get: (_, prop) => (prop === 'getMasterchainInfo' ? async () => info : prop === 'then' ? undefined : notHere),
    });
    server = new ChainLiteServer({ chain: source, recorded: new RecordedBlocks(blocks.map(({ id, block }) => ({ id, block }))) });
    await server.listen(0);
    const doc = (await server.globalConfig()) as { liteservers: unknown[]; validator: Record<string, unknown> };
    const trusted = {
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: master.id.seqno,
      root_hash: master.id.rootHash.toString('base64'),
      file_hash: master.id.fileHash.toString('base64'),
    };
    chain = new LiteserverChain({
      network: 'mainnet',
      config: parseGlobalConfig({ ...doc, validator: { ...doc.validator, init_block: trusted } }),
      proofs: 'checking',
      pool: { logger: { info: () => {}, warn: () => {} } },
    });
    expect(await chain.ready(5000)).toBe(true);
  });

  afterAll(async () => {
    await chain?.close();
    await server?.close();
  });

  async function transactionsOf(id: BlockIdExt): Promise<ChainTransaction[]> {
    const all: ChainTransaction[] = [];
    let after: { account: Buffer; lt: bigint } | undefined;
    for (;;) {
      const page = await chain.listBlockTransactionsExt(id, { count: 256, ...(after ? { after } : {}) });
      all.push(...page.transactions);
      const last = page.transactions.at(-1);
      if (!page.incomplete || !last) return all;
      after = { account: last.address.hash, lt: last.lt };
    }
  }

  it.each(blocks.map((b) => [b.f.name, b] as const))('%s: rows are the recorded transactions and messages', async (_, { f, id }) => {
    const ref = { workchain: f.workchain, shard: id.shard, seqno: f.seqno };
    // The shard walk from this block back to its parents (as committed before) reads this one block.
    const parents = (await chain.getBlockHeader(ref)).prevBlocks;
    const walked = f.workchain === -1 ? [await chain.getBlockHeader(ref)] : await newShardBlocks(chain, [ref], parents);
    expect(walked.map((h) => [h.id.workchain, h.id.shard, h.id.seqno, h.id.rootHash.toString('hex')])).toEqual([
      [f.workchain, id.shard, f.seqno, f.rootHash],
    ]);

    const mcSeqno = walked[0].masterchainRef?.seqno ?? f.seqno;
    const contents = new Map<string, string>();
    const rows = (await transactionsOf(walked[0].id)).map((tx) => transactionRows(tx, mcSeqno, contents));
    const txRows = rows.map((r) => r.transaction);
    const msgRows = rows.flatMap((r) => r.messages);
    for (const t of txRows) {
      expect([t.block_workchain, t.block_shard, t.block_seqno, t.mc_block_seqno, t.now]).toEqual([
        id.workchain,
        id.shard,
        id.seqno,
        mcSeqno,
        walked[0].genUtime,
      ]);
      expect(t.account.startsWith(`${f.workchain}:`)).toBe(true);
    }
    for (const m of msgRows) expect(contents.has(m.body_hash!)).toBe(true);
    const inRows = msgRows.filter((m) => m.direction === 'in');
    const outRows = msgRows.filter((m) => m.direction === 'out');
    expect(inRows.every((m) => txRows.some((t) => t.in_msg_hash === m.msg_hash))).toBe(true);

    if (f.expected) {
      const expected = json(f.expected) as {
        Accounts: Record<
          string,
          {
            Transactions: Record<
              string,
              { PrevTransHash: string; PrevTransLt: number; Now: number; OutMsgCnt: number; OrigStatus: string; EndStatus: string }
            >;
          }
        >;
        TxHashes: string[] | null;
        InMsgDescrLength: number;
        OutMsgDescrLength: number;
      };
      expect(txRows.map((t) => t.hash).sort()).toEqual((expected.TxHashes ?? []).map(b64).sort());
      for (const t of txRows) {
        const e = expected.Accounts[t.account.split(':')[1].toLowerCase()].Transactions[String(t.lt)];
        expect({
          prev_trans_hash: t.prev_trans_hash,
          prev_trans_lt: Number(t.prev_trans_lt),
          now: t.now,
          orig_status: t.orig_status,
          end_status: t.end_status,
        }).toEqual({
          prev_trans_hash: b64(e.PrevTransHash),
          prev_trans_lt: e.PrevTransLt,
          now: e.Now,
          orig_status: e.OrigStatus,
          end_status: e.EndStatus,
        });
        expect(outRows.filter((m) => m.tx_hash === t.hash)).toHaveLength(e.OutMsgCnt);
      }
      // Every imported message is a transaction's inbound one, every new outbound message has its descriptor entry.
      expect([inRows.length, outRows.length]).toEqual([expected.InMsgDescrLength, expected.OutMsgDescrLength]);
    }

    if (f.inMsgsMetadata) {
      const m = json(f.inMsgsMetadata) as { entries: { msg_src: string; msg_created_lt: number }[] };
      for (const e of m.entries)
        expect(
          inRows.some((r) => r.source === e.msg_src.toUpperCase() && r.created_lt === BigInt(e.msg_created_lt)),
          `${e.msg_src}:${e.msg_created_lt}`,
        ).toBe(true);
    }

    if (f.parents) {
      const p = json(f.parents) as { parents: { workchain: number; shard: string; seqno: number; root_hash: string }[] };
      expect(
        walked[0].prevBlocks.map((b) => [b.workchain, BigInt.asUintN(64, b.shard).toString(16), b.seqno, b.rootHash.toString('hex')]),
      ).toEqual(p.parents.map((x) => [x.workchain, x.shard, x.seqno, x.root_hash]));
      expect(mcSeqno).toBe(9546494);
    }

    if (f.counts) {
      expect([txRows.length, new Set(txRows.map((t) => t.account)).size, inRows.length, mcSeqno]).toEqual([
        f.counts.transactions,
        f.counts.accountBlocks,
        f.counts.inMsgDescr,
        f.counts.masterRefSeqno,
      ]);
    }
  });
});
