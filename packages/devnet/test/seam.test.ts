import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, toNano } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDevnet, fastSha256Installed, installFastSha256, WRITTEN_FOR, type Devnet, type SeamOptions } from '../src/index.js';
import { fastPathApplies, installedVersion } from '../src/fast/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

// Every fast path in src/fast/ runs only on the library version it was written for; on any other the devnet takes
// the library's public API. The tests pretend other versions are installed to force the fallback.

const OTHER_SANDBOX: SeamOptions = { installed: { '@ton/sandbox': '0.40.9' } };
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('version checks', () => {
  it('reads the installed versions and allows a fast path only on the version it was written for', () => {
    expect(installedVersion('@ton/sandbox')).toBe(WRITTEN_FOR['@ton/sandbox']);
    expect(installedVersion('@ton/crypto')).toBe(WRITTEN_FOR['@ton/crypto']);
    expect(installedVersion('no-such-library-here')).toBeUndefined();
    expect(fastPathApplies('@ton/sandbox')).toBe(true);
    expect(fastPathApplies('@ton/sandbox', OTHER_SANDBOX)).toBe(false);
    expect(fastPathApplies('@ton/crypto', { installed: { '@ton/crypto': '3.3.1' } })).toBe(false);
  });
});

describe('sha256 of @ton/crypto', () => {
  it('is left alone on another @ton/crypto version, replaced only when installed explicitly, with equal digests', () => {
    const input = Buffer.from('tongate seam test \u00e9');
    const expected = createHash('sha256').update(input).digest();
    const before = sha256_sync(input);
    expect(installFastSha256({ installed: { '@ton/crypto': '3.2.0' } })).toBe(false);
    expect(fastSha256Installed()).toBe(false);
    expect(installFastSha256()).toBe(true);
    expect(fastSha256Installed()).toBe(true);
    expect(before.equals(expected)).toBe(true);
    expect(sha256_sync(input).equals(expected)).toBe(true);
    expect(sha256_sync('abc').equals(createHash('sha256').update('abc').digest())).toBe(true);
  });
});

/**
 * An account's first 8 bytes as a shard prefix: lookupBlock finds the block of the shard that holds the account. The
 * accounts here share the faucet's shard (the left half), so both paths run each transfer within one round: the
 * sandbox's own queue, which the public-API path uses, delivers every message in the round that sends it.
 */
const shardPrefixOf = (a: Address) => BigInt.asIntN(64, a.hash.readBigUInt64BE(0));

/** Two transfers (to new accounts: no storage fee yet) in separate rounds, an empty round, then what a client reads. */
async function exercise(devnet: Devnet) {
  const [to, other] = [new Address(0, Buffer.alloc(32, 42)), new Address(0, Buffer.alloc(32, 44))];
  await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), to, toNano('2')));
  const first = await devnet.produceBlock();
  await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), other, toNano('3')));
  await devnet.produceBlock();
  const last = await devnet.produceBlock();
  const blocks = [];
  for (let seqno = 0; seqno <= last.seqno; seqno++) {
    const header = await devnet.getBlockHeader(await devnet.lookupBlock({ workchain: 0, shard: shardPrefixOf(to), seqno }));
    const txs = await devnet.listBlockTransactionsExt(header.id, { count: 10 });
    blocks.push({ startLt: header.startLt, endLt: header.endLt, txLts: txs.transactions.map((t) => t.lt) });
  }
  const balances = [(await devnet.getAccountState(to)).balance, (await devnet.getAccountState(other)).balance];
  return { firstSeqno: first.seqno, lastSeqno: last.seqno, blocks, balances, faucetSeqno: await faucetSeqno(devnet) };
}

/** Block lt ranges follow each other, are never empty and hold their transactions. */
function expectConsistentLts(blocks: { startLt: bigint; endLt: bigint; txLts: bigint[] }[]) {
  blocks.forEach((b, i) => {
    expect(b.endLt).toBeGreaterThan(b.startLt);
    if (i > 0) expect(b.startLt).toBe(blocks[i - 1].endLt);
    for (const lt of b.txLts) {
      expect(lt).toBeGreaterThanOrEqual(b.startLt);
      expect(lt).toBeLessThan(b.endLt);
    }
  });
}

describe('devnet on another @ton/sandbox version (public API only)', () => {
  it('uses no fast path and behaves as the fast devnet does, across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tongate-seam-'));
    dirs.push(dataDir);
    const fast = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
    const fallback = await createDevnet({ network: 'testnet', blockIntervalMs: 0, dataDir, seam: OTHER_SANDBOX });
    try {
      expect(fast.fastPaths).toEqual({
        glue: 'memoized',
        directEmulator: true,
        directRunner: true,
        blockchainFields: true,
        sharedPrevBlocks: true,
      });
      expect(fallback.fastPaths).toEqual({
        glue: 'stock',
        directEmulator: false,
        directRunner: false,
        blockchainFields: false,
        sharedPrevBlocks: false,
      });
      const [a, b] = [await exercise(fast), await exercise(fallback)];
      expect(b.balances).toEqual([toNano('2'), toNano('3')]);
      expect(b.faucetSeqno).toBe(2);
      expect({ ...b, blocks: b.blocks.map((x) => x.txLts.length) }).toEqual({ ...a, blocks: a.blocks.map((x) => x.txLts.length) });
      expectConsistentLts(a.blocks);
      expectConsistentLts(b.blocks);
    } finally {
      await fast.close();
      await fallback.close();
    }
    // The restart sets the logical time through loadFrom too; the chain continues where it stopped.
    const restarted = await createDevnet({ network: 'testnet', blockIntervalMs: 0, dataDir, seam: OTHER_SANDBOX });
    try {
      const before = await restarted.getMasterchainInfo();
      const to = new Address(0, Buffer.alloc(32, 43));
      await restarted.sendMessage(await faucetTransfer(restarted, await faucetSeqno(restarted), to, toNano('1')));
      const mc = await restarted.produceBlock();
      expect(mc.seqno).toBe(before.last.seqno + 1);
      expect((await restarted.getAccountState(to)).balance).toBe(toNano('1'));
      const blocks = [];
      for (let seqno = 0; seqno <= mc.seqno; seqno++) {
        const header = await restarted.getBlockHeader(await restarted.lookupBlock({ workchain: 0, shard: shardPrefixOf(to), seqno }));
        const txs = await restarted.listBlockTransactions(header.id, { count: 10 });
        blocks.push({ startLt: header.startLt, endLt: header.endLt, txLts: txs.transactions.map((t) => t.lt) });
      }
      expectConsistentLts(blocks);
      expect(blocks[blocks.length - 1].txLts).toHaveLength(2);
    } finally {
      await restarted.close();
    }
  });
});
