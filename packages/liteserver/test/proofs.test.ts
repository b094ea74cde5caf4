/**
 * Proof checks on real recorded mainnet answers (packages/testdata/fixtures/liteserver/): block header, account
 * state with its shard proof, config proofs; tampered answers are rejected. And the client's `checking` policy is
 * really on: against the devnet liteserver, answers at the trusted zero state pass (the devnet's blocks are cells
 * named by their hashes), later heads are proven by the signatures of the validator set the zero state's config
 * names, and a server whose signatures are forged is refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, Cell, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { isChainError, shardContains, type BlockIdExt } from '@tongate/chain';
import { readBoxedLiteServerConfigInfo, readBoxedLiteServerMasterchainInfo, TlReader } from '@tongate/liteserver-tl';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import {
  checkAccountStateProof,
  checkBlockHeaderProof,
  checkBlockTransactionsProof,
  checkConfigProof,
  checkShardInMaster,
  proofRoots,
} from '../src/proofs.js';
import { blockOfProof, parseBlockHeader } from '../src/cells/block.js';
import { configParamOf } from '../src/cells/config.js';
import { configRootOfState } from '../src/cells/mc-state-extra.js';
import { findAccountLeaf, stateOfProof } from '../src/cells/shard-state.js';
import { ChainLiteServer } from '../src/server/index.js';
import { LiteserverChain, parseGlobalConfig } from '../src/index.js';
import { fixturePath } from '@tongate/testdata';

const fixtures = fixturePath('liteserver');
const json = (f: string) => JSON.parse(readFileSync(path.join(fixtures, f), 'utf8'));
const hex = (s: string) => Buffer.from(s, 'hex');
const idOf = (f: { workchain: number; shard_signed: string; seqno: number; root_hash: string; file_hash: string }): BlockIdExt => ({
  workchain: f.workchain,
  shard: BigInt(f.shard_signed),
  seqno: f.seqno,
  rootHash: hex(f.root_hash),
  fileHash: hex(f.file_hash),
});
/** The same BOC with one byte of cell data changed (past the header, before the end). */
function tamper(boc: Buffer, at = Math.floor(boc.length * 0.7)): Buffer {
  const t = Buffer.from(boc);
  t[at] ^= 0x01;
  return t;
}
const rejected = (fn: () => unknown) => expect(fn).toThrow(/liteserver proof rejected/);

describe('block header proof (docs: masterchain 31220993)', () => {
  const f = json('docs/mc-31220993.block-header.json');
  const id = idOf(f.fields.id);
  const boc = Buffer.from(f.fields.header_proof.base64, 'base64');

  it('proves the block and reads its header', () => {
    const root = Cell.fromBoc(boc)[0];
    checkBlockHeaderProof(id, root);
    const h = parseBlockHeader(id, blockOfProof(root));
    expect(h).toMatchObject({
      globalId: -239,
      genUtime: 1689699158,
      startLt: 39391488000000n,
      endLt: 39391488000004n,
      isKeyBlock: false,
      prevKeyBlockSeqno: 31212222,
      minRefMcSeqno: 31220989,
      catchainSeqno: 459393,
    });
    expect(h.validatorListHashShort >>> 0).toBe(2288844950);
    expect(h.prevBlocks).toHaveLength(1);
    expect(h.prevBlocks[0]).toMatchObject({ seqno: 31220992, rootHash: hex(f.expect.block.prev_ref.root_hash) });
  });

  it('rejects it for another block, and rejects a tampered proof', () => {
    rejected(() => checkBlockHeaderProof({ ...id, rootHash: Buffer.alloc(32, 1) }, Cell.fromBoc(boc)[0]));
    rejected(() => checkBlockHeaderProof(id, proofRoots(tamper(boc))[0]));
  });
});

describe('account state proof (docs: EQBvW8Z5… at masterchain 31220993)', () => {
  const acc = json('docs/mc-31220993.account-state.json');
  const shardInfo = json('docs/mc-31220993.shard-info.json');
  const mcId = idOf(acc.fields.id);
  const shardBlock = idOf(acc.fields.shardblk);
  const proof = Buffer.from(acc.fields.proof.base64, 'base64');
  const state = Buffer.from(acc.fields.state.base64, 'base64');
  const shardProof = Buffer.from(shardInfo.fields.shard_proof.base64, 'base64');
  const account = Address.parse(acc.account.friendly);
  const answer = () => ({ mcId, shardBlock, shardProof, proof: Cell.fromBoc(proof), state: Cell.fromBoc(state)[0], account });

  it("passes: shard block in the masterchain block, header and state proven, the account cell is the state's", () => {
    checkAccountStateProof(answer());
    const leaf = findAccountLeaf(stateOfProof(Cell.fromBoc(proof)[1]), account.hash)!;
    expect(leaf.lastTransactionLt).toBe(39330697000001n);
    expect(leaf.lastTransactionHash.toString(16).padStart(64, '0')).toBe(acc.expect.shard_account.last_trans_hash);
    expect(leaf.accountHash.toString('hex')).toBe(acc.expect.shard_account.account_hash);
    checkShardInMaster(mcId, shardBlock, shardProof);
  });

  it('rejects another account cell, a tampered proof, a shard block the masterchain does not list, another masterchain block', () => {
    const other = Cell.fromBoc(tamper(state))[0];
    expect(() => checkAccountStateProof({ ...answer(), state: other })).toThrow(/not the one the state holds/);
    rejected(() => checkAccountStateProof({ ...answer(), proof: proofRoots(tamper(proof)) }));
    rejected(() => checkAccountStateProof({ ...answer(), shardBlock: { ...shardBlock, fileHash: Buffer.alloc(32, 7) } }));
    rejected(() => checkAccountStateProof({ ...answer(), mcId: { ...mcId, rootHash: Buffer.alloc(32, 3) } }));
    rejected(() => checkAccountStateProof({ ...answer(), shardProof: tamper(shardProof) }));
  });
});

describe('config proofs', () => {
  it('tongo recording (masterchain 26309435): state_proof → block → config_proof chain, params readable', () => {
    const info = readBoxedLiteServerMasterchainInfo(new TlReader(readFileSync(path.join(fixtures, 'tongo/ton/get-last-config-all-1.bin'))));
    const config = readBoxedLiteServerConfigInfo(new TlReader(readFileSync(path.join(fixtures, 'tongo/ton/get-last-config-all-2.bin'))));
    const id = { ...info.last };
    const stateProof = Cell.fromBoc(config.stateProof)[0];
    const configProof = Cell.fromBoc(config.configProof)[0];
    checkConfigProof(id, stateProof, configProof);
    const root = configRootOfState(stateOfProof(configProof));
    expect(configParamOf(root, 34)).not.toBeNull();
    expect(configParamOf(root, 0)!.beginParse().loadBuffer(32).toString('hex')).toBe('5'.repeat(64));
    rejected(() => checkConfigProof(id, stateProof, proofRoots(tamper(config.configProof))[0]));
    rejected(() => checkConfigProof({ ...id, rootHash: Buffer.alloc(32) }, stateProof, configProof));
  });

  it('docs getConfigParams [1,4,5,7,8,15]: requested params read, pruned ones refused rather than misread', () => {
    const f = json('docs/mc-31220993.config-params.json');
    const id = idOf(f.fields.id);
    const configProof = Cell.fromBoc(Buffer.from(f.fields.config_proof.base64, 'base64'))[0];
    checkConfigProof(id, Cell.fromBoc(Buffer.from(f.fields.state_proof.base64, 'base64'))[0], configProof);
    const root = configRootOfState(stateOfProof(configProof));
    expect(configParamOf(root, 1)!.beginParse().loadBuffer(32).toString('hex')).toBe('3'.repeat(64));
    expect(configParamOf(root, 15)!.beginParse().loadUint(32)).toBe(65536);
    expect(() => configParamOf(root, 34)).toThrow(/pruned/);
  });
});

describe('block transactions proof (docs: masterchain 31220993, want_proof)', () => {
  const f = json('docs/mc-31220993.block-transactions.json');
  const id = idOf(f.fields.id);
  const proof = Buffer.from(f.fields.proof.hex, 'hex');
  const ids = (f.fields.ids as { account: string; lt: string; hash: string }[]).map((t) => ({
    account: hex(t.account),
    lt: BigInt(t.lt),
    hash: hex(t.hash),
  }));

  it('proves every listed transaction in the block', () => {
    expect(ids).toHaveLength(3);
    checkBlockTransactionsProof(id, proof, ids);
  });

  it('rejects a changed hash, a transaction the block does not hold, another block and a tampered proof', () => {
    rejected(() => checkBlockTransactionsProof(id, proof, [{ ...ids[0]!, hash: ids[1]!.hash }]));
    rejected(() => checkBlockTransactionsProof(id, proof, [{ ...ids[2]!, lt: ids[2]!.lt + 1n }]));
    rejected(() => checkBlockTransactionsProof(id, proof, [{ ...ids[2]!, account: hex('3'.repeat(64)) }]));
    rejected(() => checkBlockTransactionsProof({ ...id, rootHash: Buffer.alloc(32, 7) }, proof, ids));
    rejected(() => checkBlockTransactionsProof(id, tamper(proof), ids));
    rejected(() => checkBlockTransactionsProof(id, Buffer.alloc(0), ids));
  });
});

describe('the checking policy in the client', () => {
  let devnet: Devnet;
  let server: ChainLiteServer;
  let chain: LiteserverChain;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    server = new ChainLiteServer({ chain: devnet });
    await server.listen(0);
    chain = new LiteserverChain({ network: 'mainnet', config: parseGlobalConfig(await server.globalConfig()) });
    await chain.ready(5000);
  });

  afterAll(async () => {
    await chain?.close();
    await server?.close();
    await devnet?.close();
  });

  it("is the default, and accepts the devnet liteserver's answers at the trusted zero state: they are proven", async () => {
    expect(chain.proofs).toBe('checking');
    const state = await chain.getAccountState(devnet.faucet.address);
    expect(state.balance).toBe((await devnet.getAccountState(devnet.faucet.address, 0)).balance);
    expect((await chain.getConfigAll(0)).hash().equals((await devnet.getConfigAll(0)).hash())).toBe(true);
    const zero = await chain.lookupBlock({ workchain: -1, shard: -(2n ** 63n), seqno: 0 });
    expect(zero.rootHash.equals((await devnet.getMasterchainInfo()).init.rootHash)).toBe(true);
  });

  it("follows the devnet liteserver's heads: each is signed by the validator set its zero state's config names", async () => {
    const head = await devnet.produceBlock();
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const to = new Address(0, Buffer.alloc(32, 0x31));
    await devnet.sendMessage(
      await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), 0, [internal({ to, value: toNano('1'), bounce: false })]),
    );
    const sealed = await devnet.settle();
    expect(sealed.seqno).toBeGreaterThan(head.seqno);
    const end = Date.now() + 5000;
    while ((await chain.getMasterchainInfo()).last.seqno < sealed.seqno && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(chain.health()[0].status).toBe('ready');
    expect((await chain.getMasterchainInfo()).last.rootHash.equals(sealed.rootHash)).toBe(true);
    const state = await chain.getAccountState(devnet.faucet.address);
    expect(state.balance).toBe((await devnet.getAccountState(devnet.faucet.address)).balance);
    // The faucet's transfer, listed with want_proof and checked.
    const faucetShard = (await devnet.getShards(head.seqno + 1)).find((b) =>
      shardContains(b.shard, devnet.faucet.address.hash.readBigUInt64BE(0)),
    )!;
    const txs = await chain.listBlockTransactions(faucetShard, { count: 10 });
    expect(txs.transactions.map((t) => t.account.toString('hex'))).toContain(devnet.faucet.address.hash.toString('hex'));
  });

  it('refuses for good a devnet liteserver whose heads are signed by a key the validator set does not hold', async () => {
    const forged = new Proxy(devnet, {
      get(target, key) {
        if (key === 'getMasterchainBlockSignatures')
          return async (seqno: number) => {
            const sigs = await target.getMasterchainBlockSignatures(seqno);
            return { ...sigs, signatures: sigs.signatures.map((x) => ({ ...x, signature: Buffer.from(x.signature).fill(7, 0, 8) })) };
          };
        const v = Reflect.get(target, key, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const liar = new ChainLiteServer({ chain: forged });
    await liar.listen(0);
    const client = new LiteserverChain({ network: 'mainnet', config: parseGlobalConfig(await liar.globalConfig()) });
    try {
      const end = Date.now() + 5000;
      while (client.health()[0]?.status !== 'refused' && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(client.health()[0].status).toBe('refused');
      const err = await client.getMasterchainInfo().catch((e) => e);
      expect(isChainError(err) && err.kind).toBe('unavailable');
    } finally {
      await client.close();
      await liar.close();
    }
  });
});
