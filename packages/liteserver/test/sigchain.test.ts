/**
 * Trust in the masterchain head: validator sets (config 34, main subset, shuffle per config 28, the header's short
 * hash), block signatures (> 2/3 of the weight), forward links and proof chains from a trusted block to the head.
 * No liteserver answer with signatures was recorded, and the devnet's chains change validators only at its
 * elections' pace, so the chains here are SignedMasterchain's: real Block and state cells whose ids are their hashes, key
 * blocks that change the validator set (built with the devnet's ValidatorSet writer and signed by the devnet's
 * validator keys), served over ADNL by ChainLiteServer and proven by the client's pool, with liars refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginCell, Cell } from '@ton/core';
import { isChainError, nodeIdShort, WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { readBoxedLiteServerConfigInfo, readBoxedLiteServerMasterchainInfo, TlReader } from '@tongate/liteserver-tl';
import { createDevnet, devnetValidators, validatorSetCell, type Devnet, type DevnetValidator } from '@tongate/devnet';
import { checkBlockProofChain, checkForwardLink, type ChainLink, type ForwardLink } from '../src/proofs.js';
import { blockOfProof, parseBlockHeader } from '../src/cells/block.js';
import { configParamOf } from '../src/cells/config.js';
import { configRootOfState } from '../src/cells/mc-state-extra.js';
import { stateOfProof } from '../src/cells/shard-state.js';
import {
  blockSignaturesProblem,
  crc32c,
  masterchainValidators,
  parseShuffleMcValidators,
  parseValidatorSet,
  validatorSetHashShort,
} from '../src/validators.js';
import { ChainLiteServer, SignedMasterchain, type AddBlockOptions } from '../src/server/index.js';
import { HeadTrust, LiteConnection, LiteserverChain, parseGlobalConfig, type PoolOptions } from '../src/index.js';
import { chainLink } from '../src/client/trust.js';
import { fixturePath } from '@tongate/testdata';

const GLOBAL_ID = -239;
const validators = devnetValidators(GLOBAL_ID, 8);
const descr = (v: DevnetValidator, weight: bigint) => ({ publicKey: v.signer.publicKey, adnlAddr: v.adnlAddr, weight });
/** The first set: four devnet validators, all of them main. */
const SET_A = validatorSetCell(
  1_700_000_000,
  1_700_100_000,
  [descr(validators[0], 40n), descr(validators[1], 30n), descr(validators[2], 20n), descr(validators[3], 10n)],
  4,
);
/** The second: five others, equal weights, three of them main. */
const SET_B = validatorSetCell(
  1_700_100_000,
  1_700_200_000,
  [3, 4, 5, 6, 7].map((i) => descr(validators[i], 25n)),
  3,
);
/** Someone else's keys. */
const strangers = devnetValidators(-3, 4);
const SET_STRANGERS = validatorSetCell(
  1_700_000_000,
  1_700_100_000,
  strangers.map((v) => descr(v, 10n)),
  4,
);
const catchainConfig = (shuffle: boolean) =>
  beginCell()
    .storeUint(0xc2, 8)
    .storeUint(0, 7)
    .storeBit(shuffle)
    .storeUint(250, 32)
    .storeUint(250, 32)
    .storeUint(1000, 32)
    .storeUint(7, 32)
    .endCell();
const keys = [...validators, ...strangers].map((v) => v.signer);

/** Zero state (set A) → 1, 2 → key block 3 (set B from 4 on) → 4, 5 → key block 6 (set A again) → 7; `last` shapes block 7. */
function buildChain(last: AddBlockOptions = {}, shuffle = true): SignedMasterchain {
  const chain = new SignedMasterchain({ globalId: GLOBAL_ID, validatorSet: SET_A, catchainConfig: catchainConfig(shuffle), keys });
  chain.addBlock();
  chain.addBlock();
  chain.addBlock({ newValidatorSet: SET_B });
  chain.addBlock();
  chain.addBlock();
  chain.addBlock({ newValidatorSet: SET_A });
  chain.addBlock(last);
  return chain;
}

const links = (proof: tl.LiteServerPartialBlockProof): ChainLink[] => proof.steps.map(chainLink);
const tlIdOf = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({ ...id });
const proofFrom = (chain: SignedMasterchain, from: BlockIdExt, to = chain.head) => chain.blockProof(0x1001, tlIdOf(from), tlIdOf(to));
const rejected = (fn: () => unknown, why: RegExp) => expect(fn).toThrow(why);

describe('validator sets and signatures', () => {
  it('crc32c is Castagnoli (the check value of "123456789")', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it("mainnet block 26309435 (recorded): its config's 100 main of 230 validators, shuffled for catchain 391431, hash to its header's short hash", () => {
    const fixtures = fixturePath('liteserver/tongo/ton');
    const info = readBoxedLiteServerMasterchainInfo(new TlReader(readFileSync(path.join(fixtures, 'get-last-config-all-1.bin'))));
    const answer = readBoxedLiteServerConfigInfo(new TlReader(readFileSync(path.join(fixtures, 'get-last-config-all-2.bin'))));
    const header = parseBlockHeader({ ...info.last }, blockOfProof(Cell.fromBoc(answer.stateProof)[0]));
    const config = configRootOfState(stateOfProof(Cell.fromBoc(answer.configProof)[0]));
    const set = parseValidatorSet(configParamOf(config, 34)!);
    const shuffle = parseShuffleMcValidators(configParamOf(config, 28));
    expect([header.catchainSeqno, header.isKeyBlock, set.list.length, set.main, shuffle]).toEqual([391431, false, 230, 100, true]);
    expect(validatorSetHashShort(header.catchainSeqno, masterchainValidators(set, shuffle, header.catchainSeqno))).toBe(
      header.validatorListHashShort >>> 0,
    );
    expect(header.validatorListHashShort >>> 0).toBe(2792885147);
    // Unshuffled, or for another session, the subset is another.
    expect(validatorSetHashShort(header.catchainSeqno, masterchainValidators(set, false, header.catchainSeqno))).not.toBe(2792885147);
    expect(validatorSetHashShort(header.catchainSeqno, masterchainValidators(set, true, header.catchainSeqno + 1))).not.toBe(2792885147);
  });

  it("reads the devnet's ValidatorSet cells, and refuses inconsistent ones", () => {
    const set = parseValidatorSet(SET_B);
    expect(set.list.map((v) => v.publicKey)).toEqual([3, 4, 5, 6, 7].map((i) => validators[i].signer.publicKey));
    expect([set.main, set.totalWeight, set.utimeSince]).toEqual([3, 125n, 1_700_100_000]);
    const lying = beginCell()
      .storeSlice(SET_B.beginParse().skip(8 + 32 + 32 + 16 + 16))
      .endCell();
    const header = (total: number, main: number, weight: bigint) =>
      beginCell().storeUint(0x12, 8).storeUint(0, 64).storeUint(total, 16).storeUint(main, 16).storeUint(weight, 64);
    expect(() => parseValidatorSet(header(5, 3, 126n).storeSlice(lying.beginParse().skip(64)).endCell())).toThrow(/total weight/);
    expect(() => parseValidatorSet(header(6, 3, 125n).storeSlice(lying.beginParse().skip(64)).endCell())).toThrow(/lacks validator #5/);
    expect(() => parseValidatorSet(header(5, 0, 125n).storeSlice(lying.beginParse().skip(64)).endCell())).toThrow(/main = 0/);
  });

  it('masterchain validators: the first `main`, or a shuffle of them that depends on the catchain seqno', () => {
    const set = parseValidatorSet(SET_B);
    expect(parseShuffleMcValidators(catchainConfig(true))).toBe(true);
    expect(parseShuffleMcValidators(catchainConfig(false))).toBe(false);
    expect(parseShuffleMcValidators(null)).toBe(false);
    expect(masterchainValidators(set, false, 9)).toEqual(set.list.slice(0, 3));
    const orders = new Set<string>();
    for (let cc = 0; cc < 20; cc++) {
      const shuffled = masterchainValidators(set, true, cc);
      expect(new Set(shuffled)).toEqual(new Set(set.list.slice(0, 3)));
      expect(masterchainValidators(set, true, cc)).toEqual(shuffled);
      orders.add(shuffled.map((v) => set.list.indexOf(v)).join());
    }
    expect(orders.size).toBeGreaterThan(1);
    // The short hash covers the order, the weights and the catchain seqno.
    const head = set.list.slice(0, 3);
    expect(validatorSetHashShort(1, head)).not.toBe(validatorSetHashShort(2, head));
    expect(validatorSetHashShort(1, head)).not.toBe(validatorSetHashShort(1, [head[1], head[0], head[2]]));
  });

  it('signatures: more than 2/3 of the weight by known validators, each once, over ton.blockId', () => {
    const chain = buildChain();
    const id = chain.head;
    const set = parseValidatorSet(SET_A).list;
    const sign = (i: number, target = id) => ({
      nodeIdShort: nodeIdShort(validators[i].signer.publicKey),
      signature: validators[i].signer.sign(Buffer.concat([Buffer.from('706e0bc5', 'hex'), target.rootHash, target.fileHash])),
    });
    expect(blockSignaturesProblem(set, [sign(0), sign(1)], id)).toBeNull(); // 70 of 100
    expect(blockSignaturesProblem(set, [sign(0), sign(3), sign(2)], id)).toBeNull(); // 70
    expect(blockSignaturesProblem(set, [sign(1), sign(2), sign(3)], id)).toMatch(/insufficient signature weight: 60 of 100/);
    expect(blockSignaturesProblem(set, [sign(0), sign(2)], id)).toMatch(/insufficient/); // 60
    // Exactly 2/3 is not enough: two of three equal weights.
    const equal = parseValidatorSet(SET_B).list.slice(0, 3);
    expect(blockSignaturesProblem(equal, [sign(3), sign(4)], id)).toMatch(/insufficient signature weight: 50 of 75/);
    expect(blockSignaturesProblem(equal, [sign(3), sign(4), sign(5)], id)).toBeNull();
    expect(blockSignaturesProblem(set, [sign(0), sign(0), sign(1)], id)).toMatch(/two signatures by validator/);
    expect(blockSignaturesProblem(set, [sign(0), sign(1), sign(5)], id)).toMatch(/not a validator of the set/);
    expect(blockSignaturesProblem(set, [sign(0), sign(1, chain.zeroState)], id)).toMatch(/not valid for this block/);
    expect(blockSignaturesProblem(set, [], id)).toMatch(/no signatures/);
  });
});

describe('forward links and proof chains (built blocks)', () => {
  const honest = buildChain();

  it('pass: from the zero state through two validator-set changes to the head; the newest key block is reported', () => {
    const proof = proofFrom(honest, honest.zeroState);
    expect(proof.complete).toBe(true);
    expect(proof.steps.map((s) => [s._.slice(20), s.from.seqno, s.to.seqno])).toEqual([
      ['Forward', 0, 3],
      ['Forward', 3, 6],
      ['Forward', 6, 7],
    ]);
    expect(checkBlockProofChain(honest.zeroState, honest.head, links(proof))).toEqual({
      keyBlock: honest.header(6)!.id,
      genUtime: honest.headUtime(),
    });
    // Not shuffled, too.
    const plain = buildChain({}, false);
    expect(checkBlockProofChain(plain.zeroState, plain.head, links(proofFrom(plain, plain.zeroState))).keyBlock?.seqno).toBe(6);
    // From a block that is not a key block: back to its key block, then forward.
    const fromTwo = proofFrom(honest, { ...honest.zeroState, ...honest.header(2)!.id });
    expect(fromTwo.steps.map((s) => [s._.slice(20), s.from.seqno, s.to.seqno])).toEqual([
      ['Back', 2, 0],
      ['Forward', 0, 3],
      ['Forward', 3, 6],
      ['Forward', 6, 7],
    ]);
    expect(checkBlockProofChain(fromTwo.from, honest.head, links(fromTwo)).keyBlock?.seqno).toBe(6);
  });

  /** The last link of a chain to a head shaped by `last`, checked from the honest key block 6. */
  const lastLink = (last: AddBlockOptions): ForwardLink => {
    const chain = buildChain(last);
    const key6 = chain.header(6)!.id;
    return links(proofFrom(chain, key6))[0] as ForwardLink;
  };

  it("reject forged signatures, too little weight, another validator set, strangers' signatures", () => {
    rejected(() => checkForwardLink(lastLink({ tamperSignatures: true })), /signatures of .*7\).* not valid for this block/);
    rejected(() => checkForwardLink(lastLink({ onlySigners: [0] })), /insufficient signature weight/);
    rejected(
      () => checkForwardLink(lastLink({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS })),
      /another validator set/,
    );
    rejected(() => checkForwardLink(lastLink({ signWith: strangers.map((v) => v.signer) })), /not a validator of the set/);
    // Set B's validators signing after set A came back.
    rejected(
      () => checkForwardLink(lastLink({ signWith: [3, 4, 5, 6, 7].map((i) => validators[i].signer) })),
      /not a validator of the set/,
    );
  });

  it('reject a link whose proofs are of other blocks, that starts at a block that is not a key block, or lies about key blocks', () => {
    const good = lastLink({});
    const key3 = honest.header(3)!;
    const five = honest.header(5)!;
    rejected(() => checkForwardLink({ ...good, destProof: key3.proof }), /header proof is for another block/);
    rejected(() => checkForwardLink({ ...good, configProof: five.proof }), /header proof is for another block/);
    rejected(() => checkForwardLink({ ...good, from: five.id, configProof: five.proof }), /not a key block/);
    rejected(() => checkForwardLink({ ...good, toKeyBlock: true }), /says .* is a key block, its header says otherwise/);
    rejected(() => checkForwardLink({ ...good, configProof: Buffer.alloc(0) }), /0 roots/);
    const zeroLink = links(proofFrom(honest, honest.zeroState))[0] as ForwardLink;
    rejected(() => checkForwardLink({ ...zeroLink, from: { ...zeroLink.from, rootHash: Buffer.alloc(32, 1) } }), /not of the zero state/);
    rejected(() => checkForwardLink({ ...good, to: good.from, from: good.to }), /not newer/);
  });

  it('reject chains that do not join up or stop short', () => {
    const all = links(proofFrom(honest, honest.zeroState));
    rejected(() => checkBlockProofChain(honest.zeroState, honest.head, [all[0], all[2]]), /link 1 starts at/);
    rejected(() => checkBlockProofChain(honest.zeroState, honest.head, all.slice(0, 2)), /end at .*6\)/);
    rejected(() => checkBlockProofChain(honest.zeroState, honest.head, []), /end at/);
  });
});

describe('the head over ADNL: the pool proves every head from the trusted block', () => {
  let devnet: Devnet;
  const servers: ChainLiteServer[] = [];
  const clients: LiteserverChain[] = [];
  const FAST: Omit<PoolOptions, 'servers' | 'zeroState' | 'verifyHead'> = {
    queryTimeoutMs: 1000,
    deadlineMs: 3000,
    headPollMs: 100,
    reconnectMinMs: 100,
    reconnectMaxMs: 400,
    pingIntervalMs: 500,
  };

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const s of servers) await s.close();
    await devnet?.close();
  });

  async function serve(masterchain: SignedMasterchain): Promise<ChainLiteServer> {
    const server = new ChainLiteServer({ chain: devnet, masterchain });
    await server.listen(0);
    servers.push(server);
    return server;
  }

  const warnings: string[] = [];
  async function client(
    list: ChainLiteServer[],
    proofs: 'checking' | 'unsafe' = 'checking',
    initBlock?: BlockIdExt,
    trustedBlockFile?: string,
  ): Promise<LiteserverChain> {
    const docs = (await Promise.all(list.map((s) => s.globalConfig()))) as { liteservers: unknown[]; validator: { init_block: object } }[];
    const validator = {
      ...docs[0].validator,
      ...(initBlock
        ? {
            init_block: {
              workchain: -1,
              shard: '-9223372036854775808',
              seqno: initBlock.seqno,
              root_hash: initBlock.rootHash.toString('base64'),
              file_hash: initBlock.fileHash.toString('base64'),
            },
          }
        : {}),
    };
    const logger = { info: () => {}, warn: (o: object) => void warnings.push(JSON.stringify(o)) };
    const tongate = trustedBlockFile ? { trusted_block_file: trustedBlockFile } : undefined;
    const c = new LiteserverChain({
      network: 'mainnet',
      config: parseGlobalConfig({ liteservers: docs.flatMap((d) => d.liteservers), validator, tongate }),
      proofs,
      pool: { ...FAST, logger },
    });
    clients.push(c);
    return c;
  }

  async function until(cond: () => boolean, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  const sameId = (a: BlockIdExt, b: BlockIdExt) => a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);

  it('an honest server: its head is proven from the zero state, the newest key block is trusted, new heads follow', async () => {
    const chain = buildChain();
    const server = await serve(chain);
    const c = await client([server]);
    expect(await c.ready(5000)).toBe(true);
    expect(sameId((await c.getMasterchainInfo()).last, chain.head)).toBe(true);
    expect(c.trust!.trustedKeyBlock.seqno).toBe(6);
    const proofsAsked = server.received.get('liteServer.getBlockProof') ?? 0;
    // Two more blocks, one of them a key block: each new head is one short chain from the trusted key block.
    chain.addBlock({ newValidatorSet: SET_B });
    chain.addBlock();
    await until(() => c.health()[0].headSeqno === 9);
    expect(sameId((await c.getMasterchainInfo()).last, chain.head)).toBe(true);
    expect(c.trust!.trustedKeyBlock.seqno).toBe(8);
    expect((server.received.get('liteServer.getBlockProof') ?? 0) - proofsAsked).toBeLessThanOrEqual(3);
    // A configured init_block (key block 3) is where a new client starts.
    const fromThree = await client([server], 'checking', chain.header(3)!.id as BlockIdExt);
    expect(await fromThree.ready(5000)).toBe(true);
    expect(fromThree.trust!.trustedKeyBlock.seqno).toBe(8);
  });

  it('the newest proven key block is kept in tongate.trusted_block_file: a restart starts from it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tongate-trust-'));
    const file = path.join(dir, 'mainnet-trusted.json');
    const chain = buildChain();
    const first = await client([await serve(chain)], 'checking', undefined, file);
    expect(await first.ready(5000)).toBe(true);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(kept.key_block).toMatchObject({ workchain: -1, seqno: 6, root_hash: chain.header(6)!.id.rootHash.toString('base64') });
    expect(kept.zero_state.root_hash).toBe(chain.zeroState.rootHash.toString('base64'));

    // A server that cannot prove anything from the zero state: only a client that starts from the kept block 6 gets on.
    const short = await serve(chain);
    const on = (short as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(short);
    on(tl.liteServerGetBlockProof, async (p) => {
      if (p.knownBlock.seqno === 0) throw new Error('the zero state is not in db');
      return chain.blockProof(p.mode, p.knownBlock, p.targetBlock);
    });
    const restarted = await client([short], 'checking', undefined, file);
    expect(await restarted.ready(5000)).toBe(true);
    expect(restarted.trust!.trustedKeyBlock.seqno).toBe(6);
    expect(await (await client([short])).ready(1000)).toBe(false);
    // A file of another network is not taken.
    writeFileSync(file, JSON.stringify({ ...kept, zero_state: { root_hash: Buffer.alloc(32, 3).toString('base64') } }));
    expect(await (await client([short], 'checking', undefined, file)).ready(1000)).toBe(false);
    expect(warnings.some((w) => w.includes('another zero state'))).toBe(true);
  });

  it('three servers at start-up: one chain from the trusted block, the others find the head proven', async () => {
    const chain = buildChain();
    const trio = [await serve(chain), await serve(chain), await serve(chain)];
    const c = await client(trio);
    await until(() => c.health().every((h) => h.healthy));
    expect(trio.reduce((n, s) => n + (s.received.get('liteServer.getBlockProof') ?? 0), 0)).toBe(1);
  });

  it("the devnet's own validator set (its config 34) and validator key sign a chain the client proves", async () => {
    const devnetSet = await devnet.getConfigParam(34);
    expect(parseValidatorSet(devnetSet!).list.map((v) => v.publicKey)).toEqual([devnet.validator.publicKey]);
    const chain = new SignedMasterchain({ globalId: GLOBAL_ID, validatorSet: devnetSet!, keys });
    chain.addBlock();
    chain.addBlock({ newValidatorSet: SET_B });
    chain.addBlock();
    const c = await client([await serve(chain)]);
    expect(await c.ready(5000)).toBe(true);
    expect(sameId((await c.getMasterchainInfo()).last, chain.head)).toBe(true);
    expect(c.trust!.trustedKeyBlock.seqno).toBe(2);
  });

  /** Verifies the head `server` reports over one ADNL connection; the refusal's message, or null. */
  async function refusal(server: ChainLiteServer, start: BlockIdExt): Promise<string | null> {
    const conn = await LiteConnection.open({
      host: '127.0.0.1',
      port: server.port,
      serverKey: server.key.publicKey,
      connectTimeoutMs: 2000,
    });
    try {
      const info = await conn.query(tl.liteServerGetMasterchainInfo, {}, { timeoutMs: 2000 });
      await new HeadTrust(start).verify((fn, params) => conn.query(fn, params, { timeoutMs: 2000 }), { ...info.last });
      return null;
    } catch (e) {
      expect(isChainError(e)).toBe(true);
      return (e as Error).message;
    } finally {
      conn.close();
    }
  }

  it('liars are refused with a clear ChainError: forged signatures, too little weight, another validator set', async () => {
    const zero = buildChain().zeroState;
    expect(await refusal(await serve(buildChain()), zero)).toBeNull();
    expect(await refusal(await serve(buildChain({ tamperSignatures: true })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .* not valid for this block/,
    );
    expect(await refusal(await serve(buildChain({ onlySigners: [0] })), zero)).toMatch(
      /proof rejected: signatures of .* insufficient signature weight/,
    );
    expect(
      await refusal(await serve(buildChain({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS })), zero),
    ).toMatch(/proof rejected: .* another validator set/);
    // A whole other chain from the same zero state, signed by strangers from block 1 on.
    const other = new SignedMasterchain({ globalId: GLOBAL_ID, validatorSet: SET_A, catchainConfig: catchainConfig(true), keys });
    other.addBlock({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS });
    other.addBlock({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS });
    expect(await refusal(await serve(other), zero)).toMatch(/proof rejected: .* another validator set/);
  });

  /** A server whose getMasterchainInfo and getBlockProof answers `lie` rewrites. */
  async function lyingServer(lie: {
    head?: (id: tl.TonNodeBlockIdExt) => tl.TonNodeBlockIdExt;
    proof?: (p: tl.LiteServerPartialBlockProof) => tl.LiteServerPartialBlockProof;
    utime?: number;
  }): Promise<ChainLiteServer> {
    const chain = buildChain();
    const server = await serve(chain);
    const on = (server as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(server);
    const head = () => (lie.head ?? ((x) => x))(tlIdOf(chain.head));
    on(tl.liteServerGetMasterchainInfo, async () => ({
      last: head(),
      stateRootHash: chain.headStateHash(),
      init: { workchain: -1, rootHash: chain.zeroState.rootHash, fileHash: chain.zeroState.fileHash },
    }));
    on(tl.liteServerGetMasterchainInfoExt, async (p) => ({
      mode: p.mode,
      version: 0x101,
      capabilities: 7n,
      last: head(),
      lastUtime: lie.utime ?? chain.headUtime(),
      now: Math.floor(Date.now() / 1000),
      stateRootHash: chain.headStateHash(),
      init: { workchain: -1, rootHash: chain.zeroState.rootHash, fileHash: chain.zeroState.fileHash },
    }));
    on(tl.liteServerGetBlockProof, async (p) => {
      const target = p.targetBlock && sameId(p.targetBlock, head()) ? tlIdOf(chain.head) : p.targetBlock;
      return (lie.proof ?? ((x) => x))(chain.blockProof(p.mode, p.knownBlock, target));
    });
    return server;
  }

  it('a fake head (honest links that do not reach it) and a broken chain are refused', async () => {
    const zero = buildChain().zeroState;
    const fake = (id: tl.TonNodeBlockIdExt) => ({ ...id, seqno: id.seqno + 1, rootHash: Buffer.alloc(32, 0xfa) });
    expect(await refusal(await lyingServer({ head: fake, proof: (p) => ({ ...p, to: fake(p.to) }) }), zero)).toMatch(
      /proof rejected: block proof links from .* end at .*7\), not at .*8\)/,
    );
    expect(await refusal(await lyingServer({ head: fake }), zero)).toMatch(/proof rejected: the block proof ends at 7, not at 8/);
    expect(await refusal(await lyingServer({ proof: (p) => ({ ...p, steps: p.steps.filter((_, i) => i !== 1) }) }), zero)).toMatch(
      /proof rejected: block proof link 1 starts at .*6\), not at .*3\)/,
    );
    expect(await refusal(await lyingServer({ proof: (p) => ({ ...p, steps: p.steps.slice(0, 2) }) }), zero)).toMatch(
      /proof rejected: block proof links from .* end at/,
    );
  });

  it('an ordinary block passed on with a made-up simplex set is refused for good', async () => {
    const simplex = (p: tl.LiteServerPartialBlockProof): tl.LiteServerPartialBlockProof => ({
      ...p,
      steps: p.steps.map((step) =>
        step._ === 'liteServer.blockLinkForward' && step.to.seqno === 7
          ? {
              ...step,
              signatures: {
                ...step.signatures,
                _: 'liteServer.signatureSet.simplex',
                ccSeqno: (step.signatures as tl.LiteServerSignatureSetOrdinary).catchainSeqno,
                sessionId: Buffer.alloc(32),
                slot: 7,
                candidate: Buffer.alloc(0),
              } as tl.LiteServerSignatureSetSimplex,
            }
          : step,
      ),
    });
    const server = await lyingServer({ proof: simplex });
    expect(await refusal(server, buildChain().zeroState)).toMatch(/^liteserver proof rejected: signatures of .*7\): malformed candidate/);
    const c = await client([server]);
    await until(() => c.health()[0].status === 'refused');
  });

  it("a head's time is its proven header's: a server claiming a later time does not make the others look behind", async () => {
    const honest = await serve(buildChain());
    const boaster = await lyingServer({ utime: buildChain().headUtime() + 3600 });
    const c = await client([honest, boaster]);
    await until(() => c.health().every((h) => h.status === 'ready'));
    await new Promise((r) => setTimeout(r, 300)); // a few head polls
    expect(c.health().map((h) => [h.healthy, h.headUtime])).toEqual([
      [true, buildChain().headUtime()],
      [true, buildChain().headUtime()],
    ]);
    expect((await c.getMasterchainInfo()).lastUtime).toBe(buildChain().headUtime());
  });

  it('in the pool: the liar is refused for good, the honest server serves; with only liars, 503', async () => {
    const honest = await serve(buildChain());
    // Its head 7 is another block than the honest 7, signed by strangers.
    const liar = await serve(buildChain({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS }));
    const c = await client([liar, honest]);
    expect(await c.ready(5000)).toBe(true);
    await until(() => c.health()[0].status === 'refused');
    expect(c.health().map((h) => [h.status, h.healthy])).toEqual([
      ['refused', false],
      ['ready', true],
    ]);
    expect(
      warnings.some((w) => w.includes(`127.0.0.1:${liar.port}`) && /another validator set|not the proven block of that height/.test(w)),
    ).toBe(true);
    expect(sameId((await c.getMasterchainInfo()).last, buildChain().head)).toBe(true);

    const alone = await client([await serve(buildChain({ onlySigners: [1] }))]);
    expect(await alone.ready(1500)).toBe(false);
    const err = await alone.getMasterchainInfo().catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('unavailable');
    expect(alone.health()[0].status).toBe('refused');
  });

  it('masterchain blocks a server names are bound to the proven head by a back link; a forged one is refused', async () => {
    const chain = buildChain();
    const c = await client([await serve(chain)]);
    expect(await c.ready(5000)).toBe(true);
    const four = await c.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 4 });
    expect(sameId(four, chain.header(4)!.id as BlockIdExt)).toBe(true);
    expect(c.trust!.isVerified(four)).toBe(true);

    // A liar with the honest head names another block 4, with a self-consistent header proof and a back link from
    // the head built on its own chain.
    const other = new SignedMasterchain({ globalId: GLOBAL_ID, validatorSet: SET_A, catchainConfig: catchainConfig(true), keys });
    for (let i = 0; i < 7; i++) other.addBlock({ signWith: strangers.map((v) => v.signer) });
    const liar = await serve(chain);
    const on = (liar as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(liar);
    on(tl.liteServerLookupBlock, async (p) => ({
      id: other.header(p.id.seqno)!.id,
      mode: p.mode,
      headerProof: other.header(p.id.seqno)!.proof,
    }));
    on(tl.liteServerGetBlockProof, async (p) => {
      if (p.targetBlock?.seqno !== 4) return chain.blockProof(p.mode, p.knownBlock, p.targetBlock);
      const forged = other.blockProof(0x1001, tlIdOf(other.head), p.targetBlock);
      return { ...forged, from: tlIdOf(chain.head), steps: forged.steps.map((step) => ({ ...step, from: tlIdOf(chain.head) })) };
    });
    const fooled = await client([liar]);
    expect(await fooled.ready(5000)).toBe(true);
    const err = await fooled.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 4 }).catch((e) => e);
    expect(isChainError(err) && err.message).toMatch(/liteserver proof rejected: header proof is for another block/);
    const unsafe = await client([liar], 'unsafe');
    expect(await unsafe.ready(5000)).toBe(true);
    expect((await unsafe.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 4 })).rootHash).toEqual(other.header(4)!.id.rootHash);
  });

  it('getMasterchainBlockSignatures passes on only signatures its chain proves', async () => {
    const chain = buildChain();
    const honest = await client([await serve(chain)]);
    expect(await honest.ready(5000)).toBe(true);
    const sigs = await honest.getMasterchainBlockSignatures(5);
    expect(sameId(sigs.id, chain.header(5)!.id as BlockIdExt)).toBe(true);
    expect(sigs.signatures.length).toBe(3); // set B's main validators

    // A liar that tampers with the signatures it sends for one block (its head chain is honest).
    const liar = await serve(chain);
    const on = (liar as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(liar);
    on(tl.liteServerGetBlockProof, async (p) => {
      const proof = chain.blockProof(p.mode, p.knownBlock, p.targetBlock);
      if (p.targetBlock?.seqno !== 5) return proof;
      const steps = proof.steps.map((step) =>
        step._ === 'liteServer.blockLinkForward'
          ? {
              ...step,
              signatures: {
                ...step.signatures,
                signatures: step.signatures.signatures.map((x) => ({ ...x, signature: Buffer.alloc(64, 1) })),
              },
            }
          : step,
      );
      return { ...proof, steps };
    });
    const checking = await client([liar]);
    const unsafe = await client([liar], 'unsafe');
    expect(await checking.ready(5000)).toBe(true);
    expect(await unsafe.ready(5000)).toBe(true);
    const err = await checking.getMasterchainBlockSignatures(5).catch((e) => e);
    expect(isChainError(err) && err.message).toMatch(/proof rejected: signatures of .*5\): the signature by validator .* is not valid/);
    expect((await unsafe.getMasterchainBlockSignatures(5)).signatures[0].signature).toEqual(Buffer.alloc(64, 1));
  });

  it('a server whose next head is not signed is refused when it reports it; unsafe passes it on', async () => {
    const chain = buildChain();
    const server = await serve(chain);
    const checking = await client([server]);
    const unsafe = await client([server], 'unsafe');
    expect(await checking.ready(5000)).toBe(true);
    expect(await unsafe.ready(5000)).toBe(true);
    chain.addBlock({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS });
    await until(() => checking.health()[0].status === 'refused');
    expect((await unsafe.getMasterchainInfo()).last.seqno).toBe(8);
  });
});
