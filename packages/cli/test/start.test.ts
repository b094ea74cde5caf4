import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot as root, serviceEnv, startService } from './service.js';

const tsx = path.join(root, 'node_modules/.bin/tsx');
const mainTs = path.join(root, 'packages/cli/src/main.ts');

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [mainTs, ...args], { env, cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('tongate start (end to end, embedded database, devnets)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-start-'));
  let child: ChildProcess;
  let output = '';
  let env: NodeJS.ProcessEnv;
  let mainnetPort: number;
  let testnetPort: number;

  beforeAll(async () => {
    mainnetPort = await freePort();
    testnetPort = await freePort();
    env = serviceEnv(dataDir, mainnetPort, testnetPort);
    const service = await startService(tsx, [mainTs, 'start'], env);
    child = service.child;
    output = service.output();
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the URLs, faucet and curl examples', () => {
    expect(output).toContain(`http://mainnet.localhost:${mainnetPort}/api/v2/`);
    expect(output).toContain(`http://testnet.localhost:${testnetPort}/api/v2/`);
    expect(output).toMatch(/mainnet faucet [A-Za-z0-9_-]{48}/);
    expect(output).toMatch(/mnemonic: (\w+ ){23}\w+/);
    expect(output).toContain('curl ');
  });

  it('serves both networks by port on 127.0.0.1 with the real v2 handlers', async () => {
    for (const [port, network] of [
      [mainnetPort, 'mainnet'],
      [testnetPort, 'testnet'],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/getMasterchainInfo`);
      expect(res.status, network).toBe(200);
      expect(res.headers.get('x-api-version')).toMatch(/^2\.2\.\d+$/);
      const body = (await res.json()) as { ok: boolean; result: { '@type': string } };
      expect(body.ok).toBe(true);
      expect(body.result['@type']).toBe('blocks.masterchainInfo');
    }
  });

  it('manages keys through the running server and enforces their network', async () => {
    const created = await runCli(['keys', 'create', '--network', 'testnet', '--rps', '5'], env);
    expect(created.code, created.out).toBe(0);
    const key = /(tgk_[A-Za-z0-9_-]+)/.exec(created.out)![1];
    const onTestnet = await fetch(`http://127.0.0.1:${testnetPort}/api/v2/getMasterchainInfo`, { headers: { 'X-API-Key': key } });
    expect(onTestnet.status).toBe(200);
    const onMainnet = await fetch(`http://127.0.0.1:${mainnetPort}/api/v2/getMasterchainInfo?api_key=${key}`);
    expect(onMainnet.status).toBe(403);
    expect(await onMainnet.json()).toEqual({ ok: false, error: 'Network not allowed', code: 403 });
  });

  it('shuts down cleanly on SIGTERM', async () => {
    expect(existsSync(path.join(dataDir, 'admin.json'))).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'admin.json'))).toBe(false);
  });
});

describe('tongate start with a DATABASE_URL that cannot be reached', () => {
  it('exits naming the setting, without a stack trace', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-deaddb-'));
    try {
      const deadPort = await freePort();
      const r = await runCli(['start'], {
        ...process.env,
        DATABASE_URL: `postgres://tongate:secret@127.0.0.1:${deadPort}/x`,
        REDIS_URL: '',
        TONGATE_DATA_DIR: dataDir,
        TONGATE_MAINNET_PORT: String(await freePort()),
        TONGATE_TESTNET_PORT: String(await freePort()),
      });
      expect(r.code).not.toBe(0);
      expect(r.out).toContain(`DATABASE_URL (postgres://tongate:***@127.0.0.1:${deadPort}/x): cannot use PostgreSQL: ECONNREFUSED`);
      expect(r.out).not.toContain('secret');
      expect(r.out).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
