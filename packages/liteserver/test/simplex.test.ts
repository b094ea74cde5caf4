/**
 * Catchain 2.0 (Simplex) signature sets: what a finalize vote signs (consensus.dataToSign over the vote for candidate
 * (slot, sha256 of the boxed CandidateHashData)), the node's checks of a set against the block header, and chains
 * that cross from ordinary to simplex sets. No real simplex set was recorded anywhere; the independent evidence is a
 * worked vector (tonutils-go's synthetic validators, its bytes computed apart from this code); the rest are sets signed
 * by generated keys on SignedMasterchain's real cells, also served over ADNL, with forged, replayed, under-quorum and
 * wrong-set variants refused.
 */
import { createPrivateKey, sign as edSign, createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginCell } from '@ton/core';
import { blockSigningPayload, isChainError, nodeIdShort, WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { createDevnet, devnetValidators, validatorSetCell, type Devnet, type DevnetValidator } from '@tongate/devnet';
import { checkBlockProofChain, checkForwardLink, type ForwardLink } from '../src/proofs.js';
import { readCandidateHashData, simplexSigningPayload, writeCandidateHashData } from '@tongate/chain';
import { signatureSetProblem, validatorSetHashShort, type SignatureSet, type ValidatorDescr } from '../src/validators.js';
import { ChainLiteServer, SignedMasterchain, type AddBlockOptions } from '../src/server/index.js';
import { HeadTrust, LiteConnection, LiteserverChain, parseGlobalConfig } from '../src/index.js';
import { chainLink, signatureSet } from '../src/client/trust.js';

const hex = (h: string) => Buffer.from(h.replace(/\s+/g, ''), 'hex');

/** An Ed25519 key from a 32-byte seed (RFC 8032 keys, as Go's ed25519.NewKeyFromSeed). */
function seededKey(seed: Buffer) {
  const privateKey = createPrivateKey({
    key: Buffer.concat([hex('302e020100300506032b657004220420'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
  return { publicKey: Buffer.from(publicKey), sign: (data: Buffer) => edSign(null, data, privateKey) };
}

describe('the worked vector (three validators of seeds 0x11, 0x22, 0x33; two sign)', () => {
  const seeds = [0x11, 0x22, 0x33];
  const weights = [40n, 35n, 25n];
  const keys = seeds.map((b) => seededKey(Buffer.alloc(32, b)));
  const nodes: ValidatorDescr[] = keys.map((k, i) => ({
    publicKey: k.publicKey,
    weight: weights[i],
    adnlAddr: Buffer.alloc(32, seeds[i] + 1),
  }));
  const ccSeqno = 17;
  const block: BlockIdExt = {
    workchain: -1,
    shard: WHOLE_SHARD,
    seqno: 100500,
    rootHash: Buffer.alloc(32, 0x41),
    fileHash: Buffer.alloc(32, 0x42),
  };
  const sessionId = Buffer.alloc(32, 0x51);
  const slot = 77;
  const candidate = writeCandidateHashData({ kind: 'ordinary', block, collatedFileHash: Buffer.alloc(32, 0x77), parent: null });
  const payload = simplexSigningPayload(sessionId, slot, candidate);
  const set = (signers: number[], over = payload, patch: Partial<SignatureSet> = {}): SignatureSet =>
    ({
      kind: 'simplex',
      catchainSeqno: ccSeqno,
      validatorSetHash: 0xa4f354d3,
      signatures: signers.map((i) => ({ nodeIdShort: nodeIdShort(keys[i].publicKey), signature: keys[i].sign(over) })),
      sessionId,
      slot,
      candidate,
      ...patch,
    }) as SignatureSet;

  it("the candidate, its hash, the signed message, the list hash and a signature are the vector's bytes", () => {
    expect(candidate.toString('hex')).toBe(
      `dcbcf9e8ffffffff0000000000000080${'94880100'}${'41'.repeat(32)}${'42'.repeat(32)}${'77'.repeat(32)}a9cccb22`,
    );
    expect(candidate.length).toBe(120);
    const h = '56e9d055d2510447f3473eadc80465621f4210230e13b7670a21befff521ffb3';
    expect(payload.toString('hex')).toBe(`f83de3a8${'51'.repeat(32)}2c05e1a7403fcd91b64d000000${h}000000`);
    expect(payload.length).toBe(84);
    expect(validatorSetHashShort(ccSeqno, nodes)).toBe(0xa4f354d3);
    const sig = keys[0].sign(payload).toString('hex');
    expect([sig.slice(0, 16), sig.slice(-8)]).toEqual(['e2fdf5f7e0bd0447', '3d314809']);
  });

  it('two of three (75 of 100) pass; the rule refuses every other variant', () => {
    const check = (s: SignatureSet, to = block) => signatureSetProblem(nodes, s, to, ccSeqno, 0xa4f354d3);
    expect(check(set([0, 1]))).toBeNull();
    expect(check(set([1, 0, 2]))).toBeNull();
    // Under quorum: 40 + 25 = 65 of 100 (more than 2/3 needed).
    expect(check(set([0, 2]))).toMatch(/insufficient signature weight: 65 of 100/);
    // Signed as an ordinary set signs (ton.blockId): not the finalize vote.
    expect(check(set([0, 1], blockSigningPayload(block.rootHash, block.fileHash)))).toMatch(/not valid for this block/);
    // Replayed: votes of another slot, another session, under this one's.
    expect(check(set([0, 1], simplexSigningPayload(sessionId, slot + 1, candidate)))).toMatch(/not valid for this block/);
    expect(check(set([0, 1], simplexSigningPayload(Buffer.alloc(32, 0x52), slot, candidate)))).toMatch(/not valid for this block/);
    expect(check(set([0, 1], payload, { slot: slot - 1 }))).toMatch(/not valid for this block/);
    expect(check(set([0, 1], payload, { sessionId: Buffer.alloc(32, 0x50) } as Partial<SignatureSet>))).toMatch(/not valid for this block/);
    // The candidate names the block: a set of block 100501 does not sign 100500, nor the other way round.
    const next = { ...block, seqno: 100501 };
    expect(check(set([0, 1]), next)).toMatch(/the candidate is of block \(-1,100500\)/);
    const nextCandidate = writeCandidateHashData({ kind: 'ordinary', block: next, collatedFileHash: Buffer.alloc(32, 0x77), parent: null });
    expect(
      check(set([0, 1], simplexSigningPayload(sessionId, slot, nextCandidate), { candidate: nextCandidate } as Partial<SignatureSet>)),
    ).toMatch(/the candidate is of block \(-1,100501\)/);
    // Another session of the validators, another list than the header's.
    expect(check(set([0, 1], payload, { catchainSeqno: 18 }))).toMatch(/catchain session 18, the block header names 17/);
    expect(check(set([0, 1], payload, { validatorSetHash: 0xa4f354d4 }))).toMatch(/names validator list/);
    // One bad, unknown or repeated signature refuses the whole set, even with enough weight besides.
    const good = set([0, 1, 2]);
    expect(
      check({ ...good, signatures: [...good.signatures.slice(0, 2), { ...good.signatures[2], signature: Buffer.alloc(64, 7) }] }),
    ).toMatch(/not valid/);
    const stranger = seededKey(Buffer.alloc(32, 0x44));
    expect(
      check({
        ...good,
        signatures: [...good.signatures, { nodeIdShort: nodeIdShort(stranger.publicKey), signature: stranger.sign(payload) }],
      }),
    ).toMatch(/not a validator of the set/);
    expect(check({ ...good, signatures: [...good.signatures, good.signatures[0]] })).toMatch(/two signatures/);
    expect(check(set([]))).toMatch(/no signatures/);
  });

  it('candidate hash data: ordinary with or without a parent, empty; anything else is refused', () => {
    expect(readCandidateHashData(candidate)).toEqual({ kind: 'ordinary', block, collatedFileHash: Buffer.alloc(32, 0x77), parent: null });
    const withParent = writeCandidateHashData({
      kind: 'ordinary',
      block,
      collatedFileHash: Buffer.alloc(32, 0x77),
      parent: { slot: 76, hash: Buffer.alloc(32, 9) },
    });
    // candidateParent, then the boxed candidateId.
    expect(withParent.subarray(116, 124).toString('hex')).toBe('f19a4b1a3fcd91b6');
    expect(readCandidateHashData(withParent)).toMatchObject({ parent: { slot: 76, hash: Buffer.alloc(32, 9) } });
    const empty = writeCandidateHashData({ kind: 'empty', block, parent: { slot: 76, hash: Buffer.alloc(32, 9) } });
    // The empty candidate's parent is a bare candidateId: 4 + 80 + 36 bytes.
    expect([empty.length, empty.subarray(0, 4).toString('hex')]).toEqual([120, '33d9b472']);
    expect(readCandidateHashData(empty)).toEqual({ kind: 'empty', block, parent: { slot: 76, hash: Buffer.alloc(32, 9) } });
    expect(() => readCandidateHashData(Buffer.concat([candidate, Buffer.alloc(4)]))).toThrow(/trailing bytes/);
    expect(() => readCandidateHashData(candidate.subarray(0, 100))).toThrow(/truncated/);
    expect(() => readCandidateHashData(Buffer.concat([hex('deadbeef'), candidate.subarray(4)]))).toThrow(
      /unknown consensus.CandidateHashData/,
    );
    const badParent = Buffer.from(candidate);
    badParent.writeUInt32LE(0x12345678, 116);
    expect(() => readCandidateHashData(badParent)).toThrow(/unknown consensus.CandidateParent/);
    // A set whose candidate does not read is refused, not skipped.
    expect(
      signatureSetProblem(
        nodes,
        set([0, 1], payload, { candidate: Buffer.concat([candidate, Buffer.alloc(4)]) } as Partial<SignatureSet>),
        block,
        ccSeqno,
        0xa4f354d3,
      ),
    ).toMatch(/malformed candidate: .*trailing/);
  });
});

const GLOBAL_ID = -239;
const validators = devnetValidators(GLOBAL_ID, 8);
const descr = (v: DevnetValidator, weight: bigint) => ({ publicKey: v.signer.publicKey, adnlAddr: v.adnlAddr, weight });
const SET_A = validatorSetCell(
  1_700_000_000,
  1_700_100_000,
  [descr(validators[0], 40n), descr(validators[1], 30n), descr(validators[2], 20n), descr(validators[3], 10n)],
  4,
);
const SET_B = validatorSetCell(
  1_700_100_000,
  1_700_200_000,
  [3, 4, 5, 6, 7].map((i) => descr(validators[i], 25n)),
  3,
);
const strangers = devnetValidators(-3, 4);
const SET_STRANGERS = validatorSetCell(
  1_700_000_000,
  1_700_100_000,
  strangers.map((v) => descr(v, 10n)),
  4,
);
const catchainConfig = beginCell()
  .storeUint(0xc2, 8)
  .storeUint(0, 7)
  .storeBit(true)
  .storeUint(250, 32)
  .storeUint(250, 32)
  .storeUint(1000, 32)
  .storeUint(7, 32)
  .endCell();
const keys = [...validators, ...strangers].map((v) => v.signer);
const tlIdOf = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({ ...id });

/**
 * Zero state (set A) → 1, 2 → key block 3 (set B) → 4 → 5 → key block 6 (set A) → 7 → 8; ordinary sets up to block 4,
 * simplex from 5 on (`simplexFrom`), so a chain from the zero state crosses the switch inside set B's session. `last`
 * shapes block 8.
 */
function buildChain(last: AddBlockOptions = {}, simplexFrom = 5): SignedMasterchain {
  const chain = new SignedMasterchain({ globalId: GLOBAL_ID, validatorSet: SET_A, catchainConfig, keys, simplexFrom });
  chain.addBlock();
  chain.addBlock();
  chain.addBlock({ newValidatorSet: SET_B });
  chain.addBlock();
  chain.addBlock();
  chain.addBlock({ newValidatorSet: SET_A });
  chain.addBlock();
  chain.addBlock(last);
  return chain;
}
const proofFrom = (chain: SignedMasterchain, from: BlockIdExt, to = chain.head) => chain.blockProof(0x1001, tlIdOf(from), tlIdOf(to));

describe('forward links with simplex sets (built blocks)', () => {
  const honest = buildChain();

  it('a chain from the zero state crosses from ordinary to simplex sets; each kind checked by its own rule', () => {
    expect([1, 4, 5, 6, 8].map((s) => honest.signatureSetOf(s)._.slice(24))).toEqual([
      'ordinary',
      'ordinary',
      'simplex',
      'simplex',
      'simplex',
    ]);
    const proof = proofFrom(honest, honest.zeroState);
    expect(
      proof.steps.map((s) => [s.from.seqno, s.to.seqno, s._ === 'liteServer.blockLinkForward' ? s.signatures._.slice(24) : 'back']),
    ).toEqual([
      [0, 3, 'ordinary'],
      [3, 6, 'simplex'],
      [6, 8, 'simplex'],
    ]);
    expect(checkBlockProofChain(honest.zeroState, honest.head, proof.steps.map(chainLink))).toEqual({
      keyBlock: honest.header(6)!.id,
      genUtime: honest.headUtime(),
    });
    // Every block on either side of the switch, from its key block.
    for (const seqno of [4, 5, 7]) {
      const p = proofFrom(honest, honest.zeroState, honest.header(seqno)!.id as BlockIdExt);
      expect(
        checkBlockProofChain(honest.zeroState, honest.header(seqno)!.id as BlockIdExt, p.steps.map(chainLink)).genUtime,
      ).toBeGreaterThan(0);
    }
    // A network that has always signed with simplex sets, and one finalized through a later empty candidate.
    const allSimplex = buildChain({}, 1);
    expect(
      checkBlockProofChain(allSimplex.zeroState, allSimplex.head, proofFrom(allSimplex, allSimplex.zeroState).steps.map(chainLink)).keyBlock
        ?.seqno,
    ).toBe(6);
    const viaEmpty = buildChain({ emptyCandidate: true });
    const set = viaEmpty.signatureSetOf(8) as tl.LiteServerSignatureSetSimplex;
    expect(readCandidateHashData(set.candidate).kind).toBe('empty');
    expect(
      checkBlockProofChain(viaEmpty.zeroState, viaEmpty.head, proofFrom(viaEmpty, viaEmpty.zeroState).steps.map(chainLink)).genUtime,
    ).toBe(viaEmpty.headUtime());
  });

  /** The forward link from key block 6 to block 8 of a chain whose block 8 is shaped by `last`. */
  const lastLink = (last: AddBlockOptions): ForwardLink => {
    const chain = buildChain(last);
    return chainLink(proofFrom(chain, chain.header(6)!.id as BlockIdExt).steps[0]) as ForwardLink;
  };
  const refused = (last: AddBlockOptions, why: RegExp) => expect(() => checkForwardLink(lastLink(last))).toThrow(why);

  it('refused: forged, replayed (another slot, session or block), ordinary-payload, under-quorum and wrong-set simplex sets', () => {
    expect(checkForwardLink(lastLink({})).id.seqno).toBe(8);
    refused({ tamperSignatures: true }, /signatures of .*8\): the signature by validator .* is not valid for this block/);
    refused({ replay: 'slot' }, /signatures of .*8\): the signature .* is not valid for this block/);
    refused({ replay: 'session' }, /signatures of .*8\): the signature .* is not valid for this block/);
    refused({ replay: 'ordinary' }, /signatures of .*8\): the signature .* is not valid for this block/);
    refused({ replay: 'block' }, /signatures of .*8\): the candidate is of block \(-1,7\)/);
    // Set A's subset weighs 100; 40 + 20 = 60.
    refused({ onlySigners: [0] }, /insufficient signature weight/);
    refused({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS }, /another validator set/);
    refused({ signWith: strangers.map((v) => v.signer) }, /not a validator of the set/);
    refused({ signWith: [3, 4, 5, 6, 7].map((i) => validators[i].signer) }, /not a validator of the set/);
    // The set's own session and list numbers must be the header's.
    const good = lastLink({});
    const sig = good.signatures as Extract<SignatureSet, { kind: 'simplex' }>;
    expect(() => checkForwardLink({ ...good, signatures: { ...sig, catchainSeqno: sig.catchainSeqno + 1 } })).toThrow(/catchain session/);
    expect(() => checkForwardLink({ ...good, signatures: { ...sig, validatorSetHash: sig.validatorSetHash + 1 } })).toThrow(
      /names validator list/,
    );
    // The slot and session are only bound by the signatures: changing either breaks them.
    expect(() => checkForwardLink({ ...good, signatures: { ...sig, slot: sig.slot + 1 } })).toThrow(/not valid for this block/);
    expect(() => checkForwardLink({ ...good, signatures: { ...sig, sessionId: Buffer.alloc(32, 3) } })).toThrow(/not valid for this block/);
  });

  it('the TL set converts to the checked set field by field', () => {
    const set = honest.signatureSetOf(8) as tl.LiteServerSignatureSetSimplex;
    expect(signatureSet(set)).toEqual({
      kind: 'simplex',
      catchainSeqno: set.ccSeqno,
      validatorSetHash: set.validatorSetHash,
      signatures: set.signatures,
      sessionId: set.sessionId,
      slot: set.slot,
      candidate: set.candidate,
    });
    // Round trip through the wire codec (cc_seqno before validator_set_hash in the simplex constructor).
    const w = new tl.TlWriter();
    tl.writeBoxedLiteServerSignatureSet(w, set);
    const bytes = w.finish();
    expect(bytes.readUInt32LE(0)).toBe(0xac249800);
    expect(bytes.readInt32LE(4)).toBe(set.ccSeqno);
    expect(tl.readBoxedLiteServerSignatureSet(new tl.TlReader(bytes))).toEqual(set);
  });
});

describe('simplex-signed heads over ADNL', () => {
  let devnet: Devnet;
  const servers: ChainLiteServer[] = [];
  const clients: LiteserverChain[] = [];

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

  async function client(server: ChainLiteServer, proofs: 'checking' | 'unsafe' = 'checking'): Promise<LiteserverChain> {
    const doc = (await server.globalConfig()) as { liteservers: unknown[]; validator: object };
    const logger = { info: () => {}, warn: () => {} };
    const c = new LiteserverChain({
      network: 'mainnet',
      config: parseGlobalConfig({ ...doc }),
      proofs,
      pool: {
        queryTimeoutMs: 1000,
        deadlineMs: 3000,
        headPollMs: 100,
        reconnectMinMs: 100,
        reconnectMaxMs: 400,
        pingIntervalMs: 500,
        logger,
      },
    });
    clients.push(c);
    return c;
  }

  /** Proves the head `server` reports from the zero state over one ADNL connection: null, or the refusal. */
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

  it('a head signed with a simplex set is proven from the zero state across the switch; new simplex heads follow', async () => {
    const chain = buildChain();
    const server = await serve(chain);
    const c = await client(server);
    expect(await c.ready(5000)).toBe(true);
    const last = (await c.getMasterchainInfo()).last;
    expect([last.seqno, last.rootHash.equals(chain.head.rootHash)]).toEqual([8, true]);
    expect(c.trust!.trustedKeyBlock.seqno).toBe(6);
    chain.addBlock();
    const nine = chain.head;
    const end = Date.now() + 5000;
    while ((await c.getMasterchainInfo()).last.seqno !== 9 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(c.trust!.isVerified(nine)).toBe(true);
  });

  it('forged, replayed, under-quorum and wrong-set simplex heads are refused with a ChainError', async () => {
    const zero = buildChain().zeroState;
    expect(await refusal(await serve(buildChain()), zero)).toBeNull();
    expect(await refusal(await serve(buildChain({ tamperSignatures: true })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .*8\): the signature by validator .* is not valid/,
    );
    expect(await refusal(await serve(buildChain({ replay: 'slot' })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .*8\): .* not valid/,
    );
    expect(await refusal(await serve(buildChain({ replay: 'session' })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .*8\): .* not valid/,
    );
    expect(await refusal(await serve(buildChain({ replay: 'block' })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .*8\): the candidate is of block \(-1,7\)/,
    );
    expect(await refusal(await serve(buildChain({ onlySigners: [0] })), zero)).toMatch(
      /^liteserver proof rejected: signatures of .*8\): insufficient signature weight/,
    );
    expect(
      await refusal(await serve(buildChain({ signWith: strangers.map((v) => v.signer), claimValidatorSet: SET_STRANGERS })), zero),
    ).toMatch(/^liteserver proof rejected: .* another validator set/);
    // In the pool, a liar is refused for good.
    const liar = await client(await serve(buildChain({ replay: 'session' })));
    const end = Date.now() + 5000;
    while (liar.health()[0].status !== 'refused' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(liar.health()[0].status).toBe('refused');
  });

  it('getMasterchainBlockSignatures of a simplex block passes on its session, slot and candidate; ordinary blocks stay ordinary', async () => {
    const chain = buildChain();
    const c = await client(await serve(chain));
    expect(await c.ready(5000)).toBe(true);
    const set = chain.signatureSetOf(7) as tl.LiteServerSignatureSetSimplex;
    const seven = await c.getMasterchainBlockSignatures(7);
    expect(seven.id.rootHash).toEqual(chain.header(7)!.id.rootHash);
    expect(seven.simplex).toEqual({ sessionId: set.sessionId, slot: set.slot, candidate: set.candidate });
    expect(seven.signatures).toEqual(set.signatures);
    expect(readCandidateHashData(seven.simplex!.candidate).block.seqno).toBe(7);
    const four = await c.getMasterchainBlockSignatures(4);
    expect([four.simplex, four.signatures.length]).toEqual([undefined, 3]);

    // A server that passes block 7's set on under another slot (its head chain honest): refused, not passed on.
    const liar = await serve(chain);
    const on = (liar as unknown as { on: <P, R>(fn: tl.TlFunction<P, R>, h: (p: P) => Promise<R>) => void }).on.bind(liar);
    on(tl.liteServerGetBlockProof, async (p) => {
      const proof = chain.blockProof(p.mode, p.knownBlock, p.targetBlock);
      if (p.targetBlock?.seqno !== 7) return proof;
      const steps = proof.steps.map((step) =>
        step._ === 'liteServer.blockLinkForward'
          ? { ...step, signatures: { ...(step.signatures as tl.LiteServerSignatureSetSimplex), slot: set.slot + 3 } }
          : step,
      );
      return { ...proof, steps };
    });
    const checking = await client(liar);
    expect(await checking.ready(5000)).toBe(true);
    const err = await checking.getMasterchainBlockSignatures(7).catch((e) => e);
    expect(isChainError(err) && err.message).toMatch(/proof rejected: signatures of .*7\): the signature by validator .* is not valid/);
    const unsafe = await client(liar, 'unsafe');
    expect(await unsafe.ready(5000)).toBe(true);
    expect((await unsafe.getMasterchainBlockSignatures(7)).simplex?.slot).toBe(set.slot + 3);
  });
});
