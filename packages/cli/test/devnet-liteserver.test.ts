/**
 * `tongate devnet liteserver` as a user runs it: a process of its own whose printed global config keeps proof checks
 * on, and the liteserver backend opened from that file as `tongate start` opens it (checking: every head proven
 * through the signature chain from the zero state, every answer through its Merkle proof) follows the devnet's heads,
 * signed with simplex sets, and reads accounts through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiteserverChain } from '@tongate/liteserver';
import { openLiteserverBackend } from '../src/start.js';
import { freePort, repoRoot, until } from './service.js';

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mainTs = path.join(repoRoot, 'packages/cli/src/main.ts');
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as never;

let dir: string;
let configFile: string;
let child: ChildProcess;
let output = '';
let chain: LiteserverChain | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tongate-devnet-liteserver-'));
  configFile = path.join(dir, 'testnet.json');
  const port = await freePort();
  child = spawn(
    process.execPath,
    ['--import', tsxLoader, mainTs, 'devnet', 'liteserver', '--network', 'testnet', '--port', String(port), '--config-out', configFile],
    {
      cwd: repoRoot,
      env: { ...process.env, TONGATE_DATA_DIR: dir, TONGATE_DEVNET_BLOCK_INTERVAL_MS: '400', TONGATE_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await until('the global config', 90_000, async () => {
    if (child.exitCode !== null) throw new Error(`tongate devnet liteserver exited: ${output.slice(-2000)}`);
    return existsSync(configFile) && output.includes('global config written');
  });
});

afterAll(async () => {
  await chain?.close();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => (child.kill('SIGKILL'), resolve()), 10_000);
      child.once('exit', () => (clearTimeout(t), resolve()));
    });
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('tongate devnet liteserver', () => {
  it('prints a global config that keeps proof checks on', () => {
    const doc = JSON.parse(readFileSync(configFile, 'utf8'));
    expect(doc.tongate).toEqual({ proofs: 'checking' });
    expect(doc.liteservers).toHaveLength(1);
    expect(doc.validator.zero_state.root_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // The printed copy is the written one.
    expect(output).toContain('"proofs": "checking"');
  });

  it('the liteserver backend, checking, proves the heads it follows and the simplex sets that sign them', async () => {
    chain = await openLiteserverBackend('testnet', configFile, silent);
    const first = await chain.getMasterchainInfo();
    const later = await until('a later head', 30_000, async () => {
      const info = await chain!.getMasterchainInfo();
      return info.last.seqno > first.last.seqno + 2 ? info : null;
    });
    expect(chain.health()[0].status).toBe('ready');
    const sigs = await chain.getMasterchainBlockSignatures(later.last.seqno);
    expect(sigs.id.rootHash.equals(later.last.rootHash)).toBe(true);
    expect(sigs.simplex?.slot).toBeGreaterThan(0);
    // An older block, proven by one back link from the newest proven one.
    const old = await chain.getMasterchainBlockSignatures(1);
    expect(old.id.seqno).toBe(1);
    const faucet = output.match(/faucet (\S+)/)![1];
    const state = await chain.getAccountState(Address.parse(faucet), later.last.seqno);
    expect(state.status).toBe('active');
    expect(state.balance).toBeGreaterThan(0n);
  });
});
