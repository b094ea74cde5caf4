/**
 * Every whole mainnet block recorded in @tongate/testdata, read by the liteserver backend as it reads any block: a
 * ChainLiteServer serves the blocks as recorded (header proofs and transaction proofs are the real cells, so their
 * hashes are the chain's), and a `checking` LiteserverChain reads them over ADNL (lookupBlock, getBlockHeader with
 * the shard list of the masterchain block, listBlockTransactions[Ext] page by page, every transaction checked
 * against the proven block). What it reads is compared with the values recorded beside each block: ids and root
 * hashes, parents, transactions (hashes, lts, previous transaction, time, status change, out-message count),
 * message counts, and the imported messages the block names.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell, convertToMerkleProof, loadShardAccount, type Transaction } from '@ton/core';
import { ChainError, type BlockIdExt, type ChainSource, type ChainTransaction, type MasterchainInfo } from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { fixturePath, recordedBlocks, type RecordedBlockFixture } from '@tongate/testdata';
import { serializeMultiRootBoc } from '../src/boc.js';
import { ChainLiteServer, RecordedBlocks } from '../src/server/index.js';
import { LiteserverChain, parseGlobalConfig } from '../src/index.js';
import { parseBlockHeader } from '../src/cells/block.js';
import { blockTransactionCells } from '../src/cells/block-extra.js';

const read = (f: string) => readFileSync(fixturePath(f));
const json = (f: string) => JSON.parse(read(f).toString('utf8'));
const signedShard = (hex: string) => BigInt.asIntN(64, BigInt('0x' + hex));
/** Mainnet's zero state (the recorded getMasterchainInfo answer names it). */
const ZERO_STATE: BlockIdExt = {
  workchain: -1,
  shard: signedShard('8000000000000000'),
  seqno: 0,
  rootHash: Buffer.from('17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569', 'hex'),
  fileHash: Buffer.from('5e994fcf4d425c0a6ce6a792594b7173205f740a39cd56f537defd28b48a0f6e', 'hex'),
};

/** A block's id: the recorded coordinates and root hash; the file hash where recorded, else the file's sha256. */
function idOf(f: RecordedBlockFixture, bytes: Buffer): BlockIdExt {
  return {
    workchain: f.workchain,
    shard: signedShard(f.shard),
    seqno: f.seqno,
    rootHash: Buffer.from(f.rootHash, 'hex'),
    fileHash: f.fileHash ? Buffer.from(f.fileHash, 'hex') : createHash('sha256').update(bytes).digest(),
  };
}

const blocks = recordedBlocks.map((f) => {
  const bytes = read(f.file);
  return { f, id: idOf(f, bytes), block: Cell.fromBoc(bytes)[0] };
});
const master = blocks.find((b) => b.id.workchain === -1)!;

const STATUS: Record<Transaction['oldStatus'], string> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};

describe('recorded mainnet blocks through the liteserver backend (checking, over ADNL)', () => {
  let server: ChainLiteServer;
  let client: LiteserverChain;

  beforeAll(async () => {
    // The server's own head is the recorded masterchain block, and the client trusts that block (its config's
    // init_block): proofs of everything else are checked against the recorded cells.
    const head = parseBlockHeader(master.id, master.block);
    const info: MasterchainInfo = {
      last: master.id,
      init: ZERO_STATE,
      stateRootHash: master.block.refs[2].bits.subbuffer(8 + 256, 256)!,
      lastUtime: head.genUtime,
    };
    const notHere = async () => {
      throw new ChainError('not_found', 'not in the recorded blocks');
    };
    const chain = new Proxy({} as ChainSource, {
      get: (_, prop) => (prop === 'getMasterchainInfo' ? async () => info : prop === 'then' ? undefined : notHere),
    });
    server = new ChainLiteServer({ chain, recorded: new RecordedBlocks(blocks.map(({ id, block }) => ({ id, block }))) });
    await server.listen(0);
    const doc = (await server.globalConfig()) as { liteservers: unknown[]; validator: Record<string, unknown> };
    const trusted = {
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: master.id.seqno,
      root_hash: master.id.rootHash.toString('base64'),
      file_hash: master.id.fileHash.toString('base64'),
    };
    client = new LiteserverChain({
      network: 'mainnet',
      config: parseGlobalConfig({ ...doc, validator: { ...doc.validator, init_block: trusted } }),
      proofs: 'checking',
      pool: { logger: { info: () => {}, warn: () => {} } },
    });
    expect(await client.ready(5000)).toBe(true);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  async function allTransactions(id: BlockIdExt, count: number): Promise<ChainTransaction[]> {
    const out: ChainTransaction[] = [];
    let after: { account: Buffer; lt: bigint } | undefined;
    for (;;) {
      const page = await client.listBlockTransactionsExt(id, { count, ...(after ? { after } : {}) });
      out.push(...page.transactions);
      const last = page.transactions.at(-1);
      if (!page.incomplete || !last) return out;
      after = { account: last.address.hash, lt: last.lt };
    }
  }

  it.each(blocks.map((b) => [b.f.name, b] as const))(
    '%s: header, transactions and messages are the recorded ones',
    async (_, { f, id }) => {
      const header = await client.getBlockHeader({ workchain: f.workchain, shard: id.shard, seqno: f.seqno });
      expect([
        header.id.workchain,
        BigInt.asUintN(64, header.id.shard).toString(16).padStart(16, '0'),
        header.id.seqno,
        header.id.rootHash.toString('hex'),
      ]).toEqual([f.workchain, f.shard, f.seqno, f.rootHash]);
      if (f.workchain === -1) {
        // A masterchain block's shard list comes from its McBlockExtra, proven by the block.
        expect(header.shardBlocks!.length).toBeGreaterThan(0);
        for (const s of header.shardBlocks!) expect(s.workchain).toBe(0);
      } else {
        expect(header.masterchainRef?.workchain).toBe(-1);
      }

      const txs = await allTransactions(header.id, 256);
      // Small pages cross account boundaries and accounts with several transactions: the same list.
      expect((await allTransactions(header.id, 7)).map((t) => t.hash)).toEqual(txs.map((t) => t.hash));
      const short = await client.listBlockTransactions(header.id, { count: 256 });
      expect(short.transactions.map((t) => t.hash)).toEqual(txs.slice(0, 256).map((t) => t.hash));
      for (const t of txs) {
        expect([t.block.workchain, t.block.shard, t.block.seqno]).toEqual([id.workchain, id.shard, id.seqno]);
        expect(t.address.workChain).toBe(f.workchain);
        expect(t.tx.now).toBe(header.genUtime);
        expect(t.lt > header.startLt && t.lt <= header.endLt).toBe(true);
      }
      const inMessages = txs.filter((t) => t.tx.inMessage).length;
      const outMessages = txs.reduce((n, t) => n + t.tx.outMessagesCount, 0);

      if (f.expected) {
        const expected = json(f.expected) as {
          Accounts: Record<
            string,
            {
              Transactions: Record<
                string,
                {
                  Lt: number;
                  PrevTransHash: string;
                  PrevTransLt: number;
                  Now: number;
                  OutMsgCnt: number;
                  OrigStatus: string;
                  EndStatus: string;
                }
              >;
            }
          >;
          TxHashes: string[] | null;
          InMsgDescrLength: number;
          OutMsgDescrLength: number;
        };
        expect(txs.map((t) => t.hash.toString('hex')).sort()).toEqual([...(expected.TxHashes ?? [])].sort());
        expect(new Set(txs.map((t) => t.address.hash.toString('hex')))).toEqual(new Set(Object.keys(expected.Accounts)));
        for (const t of txs) {
          const e = expected.Accounts[t.address.hash.toString('hex')].Transactions[t.lt.toString()];
          expect(e, `transaction ${t.lt} of ${t.address.hash.toString('hex')}`).toBeDefined();
          expect({
            prevHash: t.tx.prevTransactionHash.toString(16).padStart(64, '0'),
            prevLt: Number(t.tx.prevTransactionLt),
            now: t.tx.now,
            out: t.tx.outMessagesCount,
            orig: STATUS[t.tx.oldStatus],
            end: STATUS[t.tx.endStatus],
          }).toEqual({
            prevHash: e.PrevTransHash,
            prevLt: e.PrevTransLt,
            now: e.Now,
            out: e.OutMsgCnt,
            orig: e.OrigStatus,
            end: e.EndStatus,
          });
        }
        // In these blocks every imported message is a transaction's inbound message and every new outbound message
        // has its OutMsgDescr entry.
        expect([inMessages, outMessages]).toEqual([expected.InMsgDescrLength, expected.OutMsgDescrLength]);
      }

      if (f.parents) {
        const p = json(f.parents) as {
          after_merge: boolean;
          parents: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }[];
        };
        expect(header.afterMerge).toBe(p.after_merge);
        expect(
          header.prevBlocks.map((b) => ({
            workchain: b.workchain,
            shard: BigInt.asUintN(64, b.shard).toString(16),
            seqno: b.seqno,
            root_hash: b.rootHash.toString('hex'),
            file_hash: b.fileHash.toString('hex'),
          })),
        ).toEqual(p.parents);
        expect(header.masterchainRef?.seqno).toBe(9546494);
      }

      if (f.inMsgsMetadata) {
        // Each imported message the block's metadata names is the inbound message of one of its transactions.
        const m = json(f.inMsgsMetadata) as { count: number; entries: { msg_src: string; msg_created_lt: number }[] };
        expect(m.entries).toHaveLength(m.count);
        const inbound = new Set(
          txs.flatMap((t) =>
            t.tx.inMessage?.info.type === 'internal' ? [`${t.tx.inMessage.info.src.toRawString()}:${t.tx.inMessage.info.createdLt}`] : [],
          ),
        );
        for (const e of m.entries) expect(inbound.has(`${e.msg_src}:${e.msg_created_lt}`), `${e.msg_src}:${e.msg_created_lt}`).toBe(true);
      }

      if (f.counts) {
        const c = f.counts;
        expect([txs.length, new Set(txs.map((t) => t.address.toRawString())).size, header.masterchainRef?.seqno, header.genUtime]).toEqual([
          c.transactions,
          c.accountBlocks,
          c.masterRefSeqno,
          c.genUtime,
        ]);
        expect(inMessages).toBe(c.inMsgDescr);
      }

      if (f.replay) {
        // Each account's first transaction in the block follows the last one its ShardAccount named before it.
        const r = json(f.replay) as {
          accounts: number;
          transactions: number;
          previous_accounts: { account: string; shard_account_boc_base64: string }[];
        };
        expect([txs.length, r.previous_accounts.length]).toEqual([r.transactions, r.accounts]);
        const first = new Map<string, ChainTransaction>();
        for (const t of txs) if (!first.has(t.address.toRawString())) first.set(t.address.toRawString(), t);
        expect(new Set(first.keys())).toEqual(new Set(r.previous_accounts.map((a) => a.account)));
        for (const a of r.previous_accounts) {
          const before = loadShardAccount(Cell.fromBase64(a.shard_account_boc_base64).beginParse());
          const t = first.get(Address.parseRaw(a.account).toRawString())!;
          expect([t.tx.prevTransactionLt, t.tx.prevTransactionHash]).toEqual([before.lastTransactionLt, before.lastTransactionHash]);
        }
      }
    },
  );

  it('a transaction the block does not hold is refused', async () => {
    const { id, block } = blocks[0];
    // A server that slips another block's transaction into the list: refused by the proof of this block.
    const own = blockTransactionCells(block)[0].cell;
    const foreign = blockTransactionCells(blocks[1].block)[0].cell;
    const on = (server as unknown as { on: (fn: unknown, h: (p: { id: tl.TonNodeBlockIdExt }) => Promise<unknown>) => void }).on.bind(
      server,
    );
    on(tl.liteServerListBlockTransactionsExt, async (p) => ({
      id: p.id,
      reqCount: 2,
      incomplete: false,
      transactions: serializeMultiRootBoc([own, foreign]),
      proof: convertToMerkleProof(block).toBoc(),
    }));
    const err = await client.listBlockTransactionsExt(id, { count: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(ChainError);
    expect((err as Error).message).toMatch(/liteserver proof rejected: transaction .* is not the one the block holds/);
  });
});
