/**
 * Block link checks (getShardBlockProof links, getBlockProof back links). No liteserver answer of these was recorded
 * (fixtures README), so the chain here is built from real cells: every block id's root hash IS its Block cell's
 * hash, every masterchain block's state update leads to a state whose prev_blocks list the earlier blocks, and the
 * proofs are Merkle proofs of those cells. Forged and tampered variants must be rejected.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginCell, Cell, convertToMerkleProof } from '@ton/core';
import { isChainError, type BlockHeader, type BlockIdExt } from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { checkAllShardsProof, checkBackLink, checkBackLinkChain, checkShardBlockLinks, type BackLink } from '../src/proofs.js';
import { buildBlockCell } from '../src/cells/block.js';
import { buildConfigShardState, type OldMcBlockInput } from '../src/cells/mc-state-extra.js';
import { buildShardHashes } from '../src/cells/shard-hashes.js';
import { ChainLiteServer } from '../src/server/index.js';
import { serializeMultiRootBoc } from '../src/boc.js';
import { LiteserverChain, parseGlobalConfig, type ProofPolicy } from '../src/index.js';

const MC_SHARD = -(2n ** 63n);
const WHOLE = -(2n ** 63n);
const LEFT = 0x4000000000000000n;
const RIGHT = BigInt.asIntN(64, 0xc000000000000000n);
const EMPTY = beginCell().endCell();
const ZERO_ID = (workchain: number, shard: bigint, seqno: number): BlockIdExt => ({
  workchain,
  shard,
  seqno,
  rootHash: Buffer.alloc(32),
  fileHash: Buffer.alloc(32),
});

interface Built {
  id: BlockIdExt;
  cell: Cell;
  state: Cell | null;
}

function block(o: {
  workchain: number;
  shard: bigint;
  seqno: number;
  prev: BlockIdExt[];
  afterSplit?: boolean;
  isKeyBlock?: boolean;
  genUtime?: number;
  state?: Cell;
  shardHashes?: Cell;
}): Built {
  const header: BlockHeader = {
    id: ZERO_ID(o.workchain, o.shard, o.seqno),
    globalId: -239,
    version: 0,
    flags: 0,
    afterMerge: false,
    afterSplit: o.afterSplit ?? false,
    beforeSplit: false,
    wantMerge: false,
    wantSplit: false,
    validatorListHashShort: 0,
    catchainSeqno: 0,
    minRefMcSeqno: 0,
    isKeyBlock: o.isKeyBlock ?? false,
    prevKeyBlockSeqno: 0,
    vertSeqno: 0,
    startLt: BigInt(o.seqno) * 1000n,
    endLt: BigInt(o.seqno) * 1000n + 5n,
    genUtime: o.genUtime ?? 1_700_000_000 + o.seqno,
    prevBlocks: o.prev,
  };
  const cell = buildBlockCell({
    header,
    prevEndLts: o.prev.map(() => 0n),
    masterRef: o.workchain === -1 ? undefined : { endLt: 0n, seqno: 1, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
    stateUpdate: o.state ? { before: EMPTY, after: o.state } : undefined,
    shardHashes: o.shardHashes,
  });
  const fileHash = createHash('sha256').update(cell.toBoc()).digest();
  return { id: { ...header.id, rootHash: cell.hash(), fileHash }, cell, state: o.state ?? null };
}

const mcState = (seqno: number, prevBlocks: OldMcBlockInput[]) =>
  buildConfigShardState(
    { globalId: -239, workchain: -1, shard: MC_SHARD, seqno, genUtime: 1_700_000_000 + seqno, genLt: BigInt(seqno) * 1000n },
    EMPTY,
    Buffer.alloc(32, 0x55),
    prevBlocks,
  );

const proofOf = (cell: Cell) => convertToMerkleProof(cell).toBoc();
const rejected = (fn: () => unknown, why?: RegExp) => expect(fn).toThrow(why ?? /liteserver proof rejected/);
/** The same BOC with one byte of cell data changed (past the header, before the end). */
function tamper(boc: Buffer, at = Math.floor(boc.length * 0.7)): Buffer {
  const t = Buffer.from(boc);
  t[at] ^= 0x01;
  return t;
}

// Basechain: blocks 10-12 of the whole shard, then 13 of its left half after a split.
const s10 = block({ workchain: 0, shard: WHOLE, seqno: 10, prev: [ZERO_ID(0, WHOLE, 9)] });
const s11 = block({ workchain: 0, shard: WHOLE, seqno: 11, prev: [s10.id] });
const s12 = block({ workchain: 0, shard: WHOLE, seqno: 12, prev: [s11.id] });
const s13left = block({ workchain: 0, shard: LEFT, seqno: 13, prev: [s12.id], afterSplit: true });
const s13right = block({ workchain: 0, shard: RIGHT, seqno: 13, prev: [s12.id], afterSplit: true });
const descr = (b: Built, regMcSeqno: number) => ({ id: b.id, startLt: 0n, endLt: 0n, genUtime: 0, regMcSeqno });

// Masterchain 1-6: 1 is a key block; 3 lists s12 as the basechain's top block, 6 lists the two halves (the shard
// lists, ShardHashes, are what getAllShardsInfo answers with).
const mc: Built[] = [];
function addMc(seqno: number, extra: { isKeyBlock?: boolean; shardHashes?: Cell } = {}): Built {
  const prevs = mc.map((b) => ({ id: b.id, endLt: BigInt(b.id.seqno) * 1000n + 5n, isKeyBlock: b.id.seqno === 1 }));
  const b = block({
    workchain: -1,
    shard: MC_SHARD,
    seqno,
    prev: [mc.at(-1)?.id ?? ZERO_ID(-1, MC_SHARD, 0)],
    state: mcState(seqno, prevs),
    ...extra,
  });
  mc.push(b);
  return b;
}
const m1 = addMc(1, { isKeyBlock: true });
const m2 = addMc(2);
const m3Shards = buildShardHashes([descr(s12, 3)]);
const m3 = addMc(3, { shardHashes: m3Shards });
const m4 = addMc(4);
const m5 = addMc(5);
const m6Shards = buildShardHashes([descr(s13left, 6), descr(s13right, 6)]);
const m6 = addMc(6, { shardHashes: m6Shards });

const back = (from: Built, to: Built, toKeyBlock = false): BackLink => ({
  toKeyBlock,
  from: from.id,
  to: to.id,
  proof: proofOf(from.cell),
  stateProof: proofOf(from.state!),
  destProof: proofOf(to.cell),
});
const link = (id: BlockIdExt, provenBlock: Built) => ({ id, proof: proofOf(provenBlock.cell) });

describe('shard block links (liteServer.shardBlockProof)', () => {
  const links = [link(s12.id, m3), link(s11.id, s12), link(s10.id, s11)];

  it('pass: the masterchain block lists the top shard block, each header names the next link as its predecessor', () => {
    checkShardBlockLinks(m3.id, s12.id, links.slice(0, 1));
    checkShardBlockLinks(m3.id, s10.id, links);
    // After a split: the top block is of a half of the requested block's shard, its predecessor the parent's block.
    checkShardBlockLinks(m6.id, s12.id, [link(s13left.id, m6), link(s12.id, s13left)]);
    checkShardBlockLinks(m6.id, s12.id, [link(s13right.id, m6), link(s12.id, s13right)]);
    // A masterchain block is its own proof.
    checkShardBlockLinks(m3.id, m3.id, []);
  });

  it('reject a link to another block than the proven one names, or with another file hash', () => {
    const forged11 = block({ workchain: 0, shard: WHOLE, seqno: 11, prev: [s10.id], genUtime: 1 });
    rejected(() => checkShardBlockLinks(m3.id, s10.id, [links[0], link(forged11.id, s12), link(s10.id, forged11)]), /does not lead to/);
    rejected(
      () => checkShardBlockLinks(m3.id, s11.id, [links[0], { ...links[1], id: { ...s11.id, fileHash: Buffer.alloc(32, 9) } }]),
      /does not lead to/,
    );
    // The masterchain block lists s12, not s11.
    rejected(() => checkShardBlockLinks(m3.id, s11.id, [link(s11.id, m3)]), /does not lead to/);
    // The left half is no predecessor of the whole shard's block 12 when the masterchain lists the right half.
    rejected(() => checkShardBlockLinks(m6.id, s12.id, [link(s13left.id, m6), link(s12.id, s13right)]));
  });

  it('reject a proof of another block, a tampered proof, another masterchain block, a chain that stops short', () => {
    rejected(() => checkShardBlockLinks(m3.id, s10.id, [link(s12.id, m4), ...links.slice(1)]), /header proof is for another block/);
    rejected(() => checkShardBlockLinks(m3.id, s10.id, [links[0], { ...links[1], proof: tamper(links[1].proof) }, links[2]]));
    rejected(() => checkShardBlockLinks(m4.id, s10.id, links));
    rejected(() => checkShardBlockLinks(s12.id, s11.id, links.slice(1)), /not a masterchain block/);
    rejected(() => checkShardBlockLinks(m3.id, s10.id, links.slice(0, 2)), /ends at/);
    rejected(() => checkShardBlockLinks(m3.id, m2.id, []), /ends at/);
    rejected(() => checkShardBlockLinks(m3.id, s10.id, [links[0], { ...links[1], proof: Buffer.alloc(0) }, links[2]]), /0 roots/);
  });
});

describe('shard lists (liteServer.allShardsInfo)', () => {
  const NO_SHARDS = beginCell().storeBit(false).endCell().toBoc();
  /** The older answer (before ton 2024.04): the block and the state after it in one BOC of two roots. */
  const twoRoots = (b: Built, state = b) => serializeMultiRootBoc([convertToMerkleProof(b.cell), convertToMerkleProof(state.state!)]);

  it('pass: the list the proven block holds (one root), and the empty list an older two-root answer proves', () => {
    checkAllShardsProof(m3.id, m3.id, proofOf(m3.cell), m3Shards.toBoc());
    checkAllShardsProof(m6.id, m6.id, proofOf(m6.cell), m6Shards.toBoc());
    checkAllShardsProof(m4.id, m4.id, twoRoots(m4), NO_SHARDS);
  });

  it("reject another block's list, a forged list, an empty list for a block with shards, a list for another block", () => {
    rejected(() => checkAllShardsProof(m3.id, m3.id, proofOf(m3.cell), m6Shards.toBoc()), /not the one masterchain block/);
    const forged12 = block({ workchain: 0, shard: WHOLE, seqno: 12, prev: [s11.id], genUtime: 3 });
    rejected(
      () => checkAllShardsProof(m3.id, m3.id, proofOf(m3.cell), buildShardHashes([descr(forged12, 3)]).toBoc()),
      /not the one masterchain block/,
    );
    rejected(() => checkAllShardsProof(m3.id, m3.id, proofOf(m3.cell), NO_SHARDS), /not the one masterchain block/);
    rejected(() => checkAllShardsProof(m4.id, m4.id, twoRoots(m4), m3Shards.toBoc()), /not the one masterchain block/);
    rejected(() => checkAllShardsProof(m3.id, m6.id, proofOf(m6.cell), m6Shards.toBoc()), /not the block asked for/);
  });

  it('reject a proof of another block, a tampered or missing proof, a state of another block', () => {
    rejected(() => checkAllShardsProof(m3.id, m3.id, proofOf(m6.cell), m6Shards.toBoc()), /header proof is for another block/);
    rejected(() => checkAllShardsProof(m3.id, m3.id, tamper(proofOf(m3.cell)), m3Shards.toBoc()));
    rejected(() => checkAllShardsProof(m3.id, m3.id, Buffer.alloc(0), m3Shards.toBoc()), /0 roots/);
    rejected(() => checkAllShardsProof(m4.id, m4.id, twoRoots(m4, m5), NO_SHARDS), /not of the masterchain block/);
    rejected(() => checkAllShardsProof(m3.id, m3.id, proofOf(m3.cell), Buffer.from('not a boc')));
  });
});

describe('back links (liteServer.blockLinkBack)', () => {
  it('pass: from proven, its state lists `to` among the previous blocks, `to` proven with its key-block flag', () => {
    checkBackLink(back(m5, m3));
    checkBackLink(back(m5, m1, true));
    checkBackLinkChain(m5.id, m3.id, [back(m5, m4), back(m4, m3)]);
    checkBackLinkChain(m5.id, m3.id, [back(m5, m3)]);
    checkBackLinkChain(m3.id, m3.id, []);
  });

  it('reject a wrong key-block flag, `to` not older, a state of another block, a block the state does not list', () => {
    rejected(() => checkBackLink(back(m5, m1, false)), /key block/);
    rejected(() => checkBackLink(back(m5, m3, true)), /key block/);
    rejected(() => checkBackLink(back(m3, m5)), /not older/);
    rejected(() => checkBackLink({ ...back(m5, m3), stateProof: proofOf(m4.state!) }), /not of the state after/);
    // A state that lists a forged block 3 proves nothing: it is not the state after block 5.
    const forged3 = block({ workchain: -1, shard: MC_SHARD, seqno: 3, prev: [m2.id], state: mcState(3, []), genUtime: 7 });
    const forgedState = mcState(5, [{ id: forged3.id, endLt: 0n, isKeyBlock: false }]);
    rejected(() => checkBackLink({ ...back(m5, m3), to: forged3.id, destProof: proofOf(forged3.cell) }), /does not list/);
    rejected(
      () => checkBackLink({ ...back(m5, m3), to: forged3.id, destProof: proofOf(forged3.cell), stateProof: proofOf(forgedState) }),
      /not of the state after/,
    );
    rejected(() => checkBackLink({ ...back(m5, m3), to: { ...m3.id, fileHash: Buffer.alloc(32, 4) } }), /does not list/);
  });

  it('reject missing, tampered or misplaced proofs, and chains that do not join up', () => {
    rejected(() => checkBackLink({ ...back(m5, m3), destProof: proofOf(m4.cell) }), /header proof is for another block/);
    rejected(() => checkBackLink({ ...back(m5, m3), destProof: Buffer.alloc(0) }), /0 roots/);
    rejected(() => checkBackLink({ ...back(m5, m3), proof: proofOf(m4.cell) }), /header proof is for another block/);
    rejected(() => checkBackLink({ ...back(m5, m3), proof: tamper(back(m5, m3).proof) }));
    rejected(() => checkBackLink({ ...back(m5, m3), stateProof: tamper(back(m5, m3).stateProof) }));
    rejected(() => checkBackLink({ ...back(m5, m3), stateProof: Buffer.alloc(0) }), /0 roots/);
    rejected(() => checkBackLinkChain(m5.id, m3.id, [back(m5, m4)]), /end at/);
    rejected(() => checkBackLinkChain(m5.id, m3.id, [back(m5, m4), back(m6, m3)]), /starts at/);
    rejected(() => checkBackLinkChain(m6.id, m3.id, [back(m5, m3)]), /starts at/);
    rejected(() => checkBackLinkChain(m5.id, m3.id, []), /end at/);
  });
});

describe('getShardBlockProof through the client, over ADNL', () => {
  let devnet: Devnet;
  let server: ChainLiteServer;
  /** What the replaying server answers for the block queries; tests change it to lie. */
  let answers: { shardProof: tl.LiteServerShardBlockProof; backSteps: BackLink[]; shardList?: { proof: Buffer; data: Buffer } };
  const clients: LiteserverChain[] = [];
  const honest = () => ({
    shardProof: { masterchainId: m3.id, links: [link(s12.id, m3), link(s11.id, s12), link(s10.id, s11)] },
    backSteps: [back(m5, m4), back(m4, m3)],
  });
  const byRef = new Map([...mc, s10, s11, s12].map((b) => [`${b.id.workchain}:${b.id.shard}:${b.id.seqno}`, b]));

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    // The pool waits for a head at least as high as the masterchain blocks asked for.
    for (let i = 0; i < 6; i++) await devnet.produceBlock();
    server = new ChainLiteServer({ chain: devnet });
    // Block queries answer from the built chain (whose shard links and back links the tests forge); the rest from the devnet.
    const on = (server as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(server);
    on(tl.liteServerLookupBlock, async (p) => {
      const b = byRef.get(`${p.id.workchain}:${p.id.shard}:${p.id.seqno}`);
      if (!b) throw new Error(`not found: block ${p.id.seqno}`);
      return { id: b.id, mode: p.mode, headerProof: proofOf(b.cell) };
    });
    on(tl.liteServerGetShardBlockProof, async () => answers.shardProof);
    // The shard list of m3 (a test's own answer when it sets one).
    on(tl.liteServerGetAllShardsInfo, async (p) => ({
      id: p.id,
      ...(answers.shardList ?? { proof: proofOf(m3.cell), data: m3Shards.toBoc() }),
    }));
    // The built chain's m6 is the head (and, by config, the trusted block): masterchain blocks the client is told of
    // are proven by a back link from it; the back chain getShardBlockProof asks for is the test's.
    const info = await devnet.getMasterchainInfo();
    const init = { workchain: -1, rootHash: info.init.rootHash, fileHash: info.init.fileHash };
    on(tl.liteServerGetMasterchainInfoExt, async (p) => ({
      mode: p.mode,
      version: 0x101,
      capabilities: 7n,
      last: m6.id,
      lastUtime: 0,
      now: 0,
      stateRootHash: m6.state!.hash(),
      init,
    }));
    on(tl.liteServerGetBlockProof, async (p) => {
      const fromHead = p.knownBlock.seqno === m6.id.seqno && p.knownBlock.rootHash.equals(m6.id.rootHash);
      const steps = fromHead ? [back(m6, mc[p.targetBlock!.seqno - 1])] : answers.backSteps;
      return {
        complete: true,
        from: p.knownBlock,
        to: p.targetBlock!,
        steps: steps.map((l) => ({ _: 'liteServer.blockLinkBack' as const, ...l })),
      };
    });
    await server.listen(0);
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await server?.close();
    await devnet?.close();
  });

  async function client(proofs: ProofPolicy): Promise<LiteserverChain> {
    // `checking` proves the head from the config's init_block by signatures (test/sigchain.test.ts); these built
    // blocks are not signed, so their head m6 is configured as the trusted block itself.
    const doc = (await server.globalConfig()) as { validator: object };
    const head = m6.id;
    const initBlock = {
      workchain: -1,
      shard: '-9223372036854775808',
      seqno: head.seqno,
      root_hash: head.rootHash.toString('base64'),
      file_hash: head.fileHash.toString('base64'),
    };
    const c = new LiteserverChain({
      network: 'mainnet',
      config: parseGlobalConfig({ ...doc, validator: { ...doc.validator, init_block: initBlock } }),
      proofs,
    });
    clients.push(c);
    expect(await c.ready(5000)).toBe(true);
    return c;
  }
  const ask = (c: LiteserverChain) => c.getShardBlockProof({ workchain: 0, shard: WHOLE, seqno: 10 }, 5);
  const refusal = async (c: LiteserverChain) => {
    const err = await ask(c).catch((e) => e);
    return isChainError(err) ? err.message : String(err);
  };

  it('checking: an honest answer passes; forged shard links, a forged or broken back chain are refused', async () => {
    const checking = await client('checking');
    answers = honest();
    const proof = await ask(checking);
    expect(proof.mcId).toEqual(m3.id);
    expect(proof.from).toEqual(m5.id);
    expect(proof.links.map((l) => l.id.seqno)).toEqual([12, 11, 10]);
    expect(proof.mcProof.map((l) => [l.from.seqno, l.to.seqno])).toEqual([
      [5, 4],
      [4, 3],
    ]);

    const forged11 = block({ workchain: 0, shard: WHOLE, seqno: 11, prev: [s10.id], genUtime: 1 });
    answers = {
      ...honest(),
      shardProof: { masterchainId: m3.id, links: [link(s12.id, m3), link(forged11.id, s12), link(s10.id, forged11)] },
    };
    expect(await refusal(checking)).toMatch(/proof rejected: shard block link 1/);
    answers = { ...honest(), backSteps: [back(m5, m4)] };
    expect(await refusal(checking)).toMatch(/proof rejected: back links from .* end at/);
    answers = { ...honest(), backSteps: [back(m5, m4), { ...back(m4, m3), stateProof: proofOf(m5.state!) }] };
    expect(await refusal(checking)).toMatch(/proof rejected: back link state proof is not of the state after/);
  });

  it('unsafe passes the same forged answers on unchanged', async () => {
    const unsafe = await client('unsafe');
    answers = { ...honest(), backSteps: [back(m5, m4)] };
    const proof = await ask(unsafe);
    expect(proof.mcProof).toHaveLength(1);
  });

  it('shard lists (getShards): checking passes the list the block holds and refuses another; unsafe passes either', async () => {
    const checking = await client('checking');
    const unsafe = await client('unsafe');
    answers = honest();
    expect(await checking.getShards(3)).toEqual([s12.id]);
    const forged12 = block({ workchain: 0, shard: WHOLE, seqno: 12, prev: [s11.id], genUtime: 3 });
    answers = { ...honest(), shardList: { proof: proofOf(m3.cell), data: buildShardHashes([descr(forged12, 3)]).toBoc() } };
    const err = await checking.getShards(3).catch((e) => e);
    expect(isChainError(err) ? err.message : String(err)).toMatch(/proof rejected: the shard list is not the one masterchain block/);
    expect(await unsafe.getShards(3)).toEqual([forged12.id]);
  });
});
