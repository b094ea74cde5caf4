/**
 * The devnet liteserver proves its answers: over ADNL, the answers of a ChainLiteServer serving a two-shard devnet
 * (whose blocks are Block cells named by their hashes) pass the client's proof checks (src/proofs.ts, what the
 * `checking` policy runs besides the signature chain): getMasterchainInfo with its head's header, getBlockHeader,
 * getAccountState (basechain in both shards, masterchain, an absent account), listBlockTransactions[Ext] with
 * want_proof, getOneTransaction, getShardBlockProof (and the back links it passes on), getAllShardsInfo and
 * getConfigParams. Tampered answers are rejected. A block journaled with an id that is not its cells' hash gets the
 * proofs built from its header, which the checks refuse.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell, comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import {
  checkAccountStateProof,
  checkAllShardsProof,
  checkBackLinkChain,
  checkShardBlockLinks,
  checkBlockHeaderProof,
  checkBlockTransactionsProof,
  checkConfigProof,
  proofRoots,
} from '../src/proofs.js';
import { blockOfProof, parseBlockHeader } from '../src/cells/block.js';
import { configParamOf } from '../src/cells/config.js';
import { configRootOfState } from '../src/cells/mc-state-extra.js';
import { stateOfProof } from '../src/cells/shard-state.js';
import { ChainLiteServer } from '../src/server/index.js';
import { LiteConnection, LiteserverChain, parseGlobalConfig } from '../src/index.js';
import { chainLink } from '../src/client/trust.js';
import { checkBlockProofChain, checkForwardLink, type ForwardLink } from '../src/proofs.js';

let devnet: Devnet;
let server: ChainLiteServer;
let conn: LiteConnection;
const left = new Address(0, Buffer.alloc(32, 0x21));
const right = new Address(0, Buffer.alloc(32, 0xd3));
const master = new Address(-1, Buffer.alloc(32, 0x5a));
const absent = new Address(0, Buffer.alloc(32, 0x99));

const call = <P, R>(fn: tl.TlFunction<P, R>, params: P) => conn.query(fn, params, { timeoutMs: 10_000 });
const tlId = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({ ...id });
const idOf = (id: tl.TonNodeBlockIdExt): BlockIdExt => ({ ...id });
const rejected = (fn: () => unknown) => expect(fn).toThrow(/liteserver proof rejected/);
/** The same BOC with one bit of cell data flipped (past the header, before the end). */
function tamper(boc: Buffer, at = Math.floor(boc.length * 0.7)): Buffer {
  const t = Buffer.from(boc);
  t[at] ^= 0x01;
  return t;
}

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  await devnet.sendMessage(
    await walletTransferBoc(
      wallet,
      signerFromSeed(devnet.faucet.secretKey),
      0,
      [left, right, master].map((to) => internal({ to, value: toNano('5'), bounce: false, body: comment('proofs') })),
    ),
  );
  await devnet.settle();
  server = new ChainLiteServer({ chain: devnet });
  await server.listen(0);
  conn = await LiteConnection.open({ host: '127.0.0.1', port: server.port, serverKey: server.key.publicKey });
});
afterAll(async () => {
  conn?.close();
  await server?.close();
  await devnet?.close();
});

async function head(): Promise<BlockIdExt> {
  return idOf((await call(tl.liteServerGetMasterchainInfo, {})).last);
}

describe('devnet liteserver answers pass the proof checks', () => {
  it('getMasterchainInfo and getBlockHeader: the head, a shard block; the state hash is the proven one', async () => {
    const info = await call(tl.liteServerGetMasterchainInfo, {});
    const last = idOf(info.last);
    const res = await call(tl.liteServerGetBlockHeader, { id: tlId(last), mode: 0xffff });
    const root = proofRoots(res.headerProof)[0];
    checkBlockHeaderProof(last, root);
    const update = blockOfProof(root).refs[2];
    expect(update.bits.subbuffer(8 + 256, 256)!.equals(info.stateRootHash)).toBe(true);
    expect(parseBlockHeader(last, blockOfProof(root)).endLt).toBe((await devnet.getBlockHeader(last)).endLt);
    for (const shard of await devnet.getShards(last.seqno)) {
      const sh = await call(tl.liteServerGetBlockHeader, { id: tlId(shard), mode: 0xffff });
      const r = proofRoots(sh.headerProof)[0];
      checkBlockHeaderProof(shard, r);
      expect(parseBlockHeader(shard, blockOfProof(r)).prevBlocks[0].seqno).toBe(shard.seqno - 1);
    }
    rejected(() => checkBlockHeaderProof({ ...last, rootHash: Buffer.alloc(32, 7) }, root));
    rejected(() => checkBlockHeaderProof(last, proofRoots(tamper(res.headerProof))[0]));
  });

  it('getAccountState: accounts in both shards, the masterchain and an absent one; a swapped state is rejected', async () => {
    const mcId = await head();
    const answers = new Map<string, tl.LiteServerAccountState>();
    /** An answer as the account state check takes it. */
    const base = (res: tl.LiteServerAccountState, account: Address) => ({
      mcId: idOf(res.id),
      shardBlock: idOf(res.shardblk),
      shardProof: res.shardProof,
      proof: proofRoots(res.proof),
      state: res.state.length > 0 ? Cell.fromBoc(res.state)[0] : null,
      account,
    });
    for (const account of [left, right, master, absent, devnet.faucet.address]) {
      const res = await call(tl.liteServerGetAccountState, { id: tlId(mcId), account: { workchain: account.workChain, id: account.hash } });
      answers.set(account.toRawString(), res);
      checkAccountStateProof(base(res, account));
      expect(res.state.length > 0).toBe(account !== absent);
    }
    // Both basechain shards answered (the two accounts lie in different halves).
    const l = answers.get(left.toRawString())!;
    const r = answers.get(right.toRawString())!;
    expect(l.shardblk.shard).not.toBe(r.shardblk.shard);
    // Another account's state, the proof of another shard block, a tampered shard proof, or a missing account.
    const faucet = answers.get(devnet.faucet.address.toRawString())!;
    rejected(() => checkAccountStateProof({ ...base(l, left), state: Cell.fromBoc(faucet.state)[0] }));
    rejected(() => checkAccountStateProof({ ...base(l, left), proof: proofRoots(r.proof) }));
    rejected(() => checkAccountStateProof({ ...base(l, left), shardProof: tamper(l.shardProof) }));
    rejected(() => checkAccountStateProof({ ...base(l, left), state: null }));
    const a = answers.get(absent.toRawString())!;
    rejected(() => checkAccountStateProof({ ...base(a, absent), state: Cell.fromBoc(l.state)[0] }));
  });

  it('listBlockTransactions[Ext] with want_proof: every listed transaction is in the proven block', async () => {
    const mcId = await head();
    let checked = 0;
    for (let s = 1; s <= mcId.seqno; s++) {
      for (const id of [
        ...(await devnet.getShards(s)),
        (await devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: s })).id,
      ]) {
        const res = await call(tl.liteServerListBlockTransactions, { id: tlId(id), mode: 7 | 32, count: 100 });
        const ids = res.ids.map((t) => ({ account: t.account!, lt: t.lt!, hash: t.hash! }));
        checkBlockTransactionsProof(id, res.proof, ids);
        const ext = await call(tl.liteServerListBlockTransactionsExt, { id: tlId(id), mode: 7 | 32, count: 100 });
        const cells = ext.transactions.length > 0 ? Cell.fromBoc(ext.transactions) : [];
        expect(cells.map((c) => c.hash().toString('hex'))).toEqual(ids.map((t) => t.hash.toString('hex')));
        checkBlockTransactionsProof(id, ext.proof, ids);
        if (ids.length > 0) {
          checked += ids.length;
          const forged = ids.map((t, i) => (i === 0 ? { ...t, hash: Buffer.alloc(32, 3) } : t));
          rejected(() => checkBlockTransactionsProof(id, res.proof, forged));
          rejected(() => checkBlockTransactionsProof({ ...id, rootHash: Buffer.alloc(32, 3) }, res.proof, ids));
        }
      }
    }
    // The faucet's transfer, its three receivers' and the elector's ticks.
    expect(checked).toBeGreaterThanOrEqual(4);
    // getOneTransaction: the transaction and the proof of its block.
    const last = (await devnet.getAccountState(right)).lastTransaction!;
    const where = (await devnet.getTransaction(right, last.lt))!;
    const one = await call(tl.liteServerGetOneTransaction, {
      id: tlId(where.block),
      account: { workchain: 0, id: right.hash },
      lt: last.lt,
    });
    const tx = { account: right.hash, lt: last.lt, hash: Cell.fromBoc(one.transaction)[0].hash() };
    expect(tx.hash.equals(last.hash)).toBe(true);
    checkBlockTransactionsProof(idOf(one.id), one.proof, [tx]);
    rejected(() => checkBlockTransactionsProof(idOf(one.id), one.proof, [{ ...tx, lt: tx.lt + 1n }]));
  });

  it('getShardBlockProof: shard links and back links pass the checks; a link to another block is rejected', async () => {
    const mcId = await head();
    const shard = (await devnet.getShards(1))[0];
    const proof = await call(tl.liteServerGetShardBlockProof, { id: tlId(shard) });
    const links = proof.links.map((l) => ({ id: idOf(l.id), proof: l.proof }));
    checkShardBlockLinks(idOf(proof.masterchainId), shard, links);
    const other = (await devnet.getShards(1))[1];
    rejected(() => checkShardBlockLinks(idOf(proof.masterchainId), other, links));
    // The devnet's back link from a later head down to that masterchain block (what getShardBlockProof passes on): one
    // link, whatever the distance, since a masterchain state lists every earlier masterchain block.
    for (let i = 0; i < 4; i++) await devnet.produceBlock();
    const later = await head();
    const chainProof = await devnet.getShardBlockProof(shard, later.seqno);
    expect(later.seqno - mcId.seqno).toBeGreaterThan(3);
    expect(chainProof.mcProof.length).toBe(1);
    checkBackLinkChain(chainProof.from, chainProof.mcId, chainProof.mcProof);
    const forged = chainProof.mcProof.map((l, i) => (i === 0 ? { ...l, to: { ...l.to, rootHash: Buffer.alloc(32, 9) } } : l));
    rejected(() => checkBackLinkChain(chainProof.from, chainProof.mcId, forged));
  });

  it("getAllShardsInfo: the shard list is the one the masterchain block's McBlockExtra holds", async () => {
    const mcId = await head();
    const res = await call(tl.liteServerGetAllShardsInfo, { id: tlId(mcId) });
    checkAllShardsProof(mcId, idOf(res.id), res.proof, res.data);
    const older = await call(tl.liteServerGetAllShardsInfo, { id: tlId((await devnet.getBlockHeader({ ...mcId, seqno: 1 })).id) });
    rejected(() => checkAllShardsProof(mcId, idOf(res.id), res.proof, older.data));
  });

  it('getConfigParams: the config is the proven state after the block', async () => {
    const mcId = await head();
    const res = await call(tl.liteServerGetConfigParams, { mode: 0, id: tlId(mcId), paramList: [34] });
    const stateProof = proofRoots(res.stateProof)[0];
    const configProof = proofRoots(res.configProof)[0];
    checkConfigProof(mcId, stateProof, configProof);
    const param34 = configParamOf(configRootOfState(stateOfProof(configProof)), 34);
    expect(param34?.hash().equals((await devnet.getConfigParam(34, mcId.seqno))!.hash())).toBe(true);
    rejected(() => checkConfigProof(mcId, stateProof, proofRoots(tamper(res.configProof))[0]));
    const before = await call(tl.liteServerGetConfigParams, {
      mode: 0,
      id: tlId((await devnet.getBlockHeader({ ...mcId, seqno: 1 })).id),
      paramList: [34],
    });
    rejected(() => checkConfigProof(mcId, stateProof, proofRoots(before.configProof)[0]));
  });

  it('a block whose id is not the hash of its cells (journaled before blocks were cells) gets header-built proofs', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-devnet-old-ids-'));
    try {
      const d1 = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, dataDir });
      await d1.produceBlock();
      await d1.close();
      // Masterchain block 1 as an older devnet named it: another root hash than its cell's.
      const journal = path.join(dataDir, 'mainnet', 'journal.ndjson');
      const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
      const round = JSON.parse(lines[1]);
      round.blocks[round.blocks.length - 1].id.root = 'ab'.repeat(32);
      lines[1] = JSON.stringify(round);
      writeFileSync(journal, lines.join('\n') + '\n');
      const d2 = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, dataDir });
      const s2 = new ChainLiteServer({ chain: d2 });
      await s2.listen(0);
      const c2 = await LiteConnection.open({ host: '127.0.0.1', port: s2.port, serverKey: s2.key.publicKey });
      try {
        const old = (await d2.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: 1 })).id;
        await expect(d2.getBlockCells(old)).rejects.toThrow(/not the hash of its cells/);
        const res = await c2.query(tl.liteServerGetBlockHeader, { id: tlId(old), mode: 0xffff }, { timeoutMs: 10_000 });
        rejected(() => checkBlockHeaderProof(old, proofRoots(res.headerProof)[0]));
        const zero = (await d2.getMasterchainInfo()).init;
        const ok = await c2.query(tl.liteServerGetBlockHeader, { id: tlId(zero), mode: 0xffff }, { timeoutMs: 10_000 });
        checkBlockHeaderProof(zero, proofRoots(ok.headerProof)[0]);
      } finally {
        c2.close();
        await s2.close();
        await d2.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('devnet block signatures and proof chains', () => {
  /** The forward links of a getBlockProof answer from the zero state (the devnet's only key block here) to `to`. */
  async function forwardFromZero(to: BlockIdExt): Promise<ForwardLink[]> {
    const zero = (await devnet.getMasterchainInfo()).init;
    const proof = await call(tl.liteServerGetBlockProof, { mode: 1, knownBlock: tlId(zero), targetBlock: tlId(to) });
    const links = proof.steps.map(chainLink);
    checkBlockProofChain(zero, to, links);
    return links.map((l) => {
      if (l._ !== 'forward') throw new Error('expected forward links from the zero state');
      return l;
    });
  }

  it('heads are signed with simplex sets (the default), which a checking client proves and passes on', async () => {
    await devnet.produceBlock();
    const client = new LiteserverChain({ network: 'mainnet', config: parseGlobalConfig(await server.globalConfig()) });
    try {
      await client.ready(10_000);
      const last = (await client.getMasterchainInfo()).last;
      const sigs = await client.getMasterchainBlockSignatures(last.seqno);
      expect(sigs.id.rootHash.equals(last.rootHash)).toBe(true);
      expect(sigs.simplex).toBeDefined();
      expect(sigs.simplex!.sessionId.length).toBe(32);
      expect(sigs.signatures.length).toBeGreaterThan(0);
      const link = (await forwardFromZero(last)).at(-1)!;
      expect(link.signatures.kind).toBe('simplex');
    } finally {
      await client.close();
    }
  });

  it('a simplex set replayed from another slot, session or block, or passed on as an ordinary set, is refused', async () => {
    await devnet.produceBlock();
    const prevHead = await head();
    await devnet.produceBlock();
    const [honest] = (await forwardFromZero(await head())).slice(-1);
    const [older] = (await forwardFromZero(prevHead)).slice(-1);
    checkForwardLink(honest);
    const set = honest.signatures;
    const prev = older.signatures;
    if (set.kind !== 'simplex' || prev.kind !== 'simplex') throw new Error('expected simplex sets');
    const variants: ForwardLink['signatures'][] = [
      { ...set, slot: set.slot + 1 },
      { ...set, sessionId: Buffer.alloc(32, 7) },
      { ...set, candidate: prev.candidate, slot: prev.slot },
      { ...prev, validatorSetHash: set.validatorSetHash },
      { kind: 'ordinary', catchainSeqno: set.catchainSeqno, validatorSetHash: set.validatorSetHash, signatures: set.signatures },
      { ...set, signatures: set.signatures.slice(0, 0) },
    ];
    for (const signatures of variants) rejected(() => checkForwardLink({ ...honest, signatures }));
  });

  it('getBlockProof from a block that is not a key block: a back link to its key block, then forward; back in one link', async () => {
    for (let i = 0; i < 3; i++) await devnet.produceBlock();
    const target = await head();
    const known = (await devnet.getBlockHeader({ ...target, seqno: target.seqno - 3 })).id;
    const up = await call(tl.liteServerGetBlockProof, { mode: 0x1001, knownBlock: tlId(known), targetBlock: tlId(target) });
    const links = up.steps.map(chainLink);
    expect(up.complete).toBe(true);
    expect(links.map((l) => [l._, l.to.seqno])).toEqual([
      ['back', 0],
      ['forward', target.seqno],
    ]);
    checkBlockProofChain(known, target, links);
    const down = await call(tl.liteServerGetBlockProof, { mode: 1, knownBlock: tlId(target), targetBlock: tlId(known) });
    expect(down.steps.map((s) => s._)).toEqual(['liteServer.blockLinkBack']);
    checkBlockProofChain(target, known, down.steps.map(chainLink));
  });

  it('with consensus catchain, ordinary signature sets, which a checking client proves', async () => {
    const d = await createDevnet({ network: 'testnet', blockIntervalMs: 0, consensus: 'catchain' });
    const s = new ChainLiteServer({ chain: d });
    await s.listen(0);
    const client = new LiteserverChain({ network: 'testnet', config: parseGlobalConfig(await s.globalConfig()) });
    try {
      await d.produceBlock();
      await d.produceBlock();
      await client.ready(10_000);
      const last = (await client.getMasterchainInfo()).last;
      const sigs = await client.getMasterchainBlockSignatures(last.seqno);
      expect(sigs.simplex).toBeUndefined();
      expect(sigs.signatures.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await s.close();
      await d.close();
    }
  });
});
