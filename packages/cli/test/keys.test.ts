import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAdminApp, listen, newAdminToken, readAdminFile, removeAdminFile, writeAdminFile, type RunningServer } from '@tongate/server';
import { hashKey, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { main } from '../src/main.js';

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await main(args, (s) => lines.push(s));
  return { code, out: lines.join('\n') };
}

const keyOf = (out: string) => /(tgk_[A-Za-z0-9_-]+)/.exec(out)?.[1];

describe('tongate keys (embedded database, no server running)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-cli-'));
  beforeAll(() => {
    // The commands read their database from the environment; restored after the suite (vi.unstubAllEnvs).
    vi.stubEnv('TONGATE_DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', undefined);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, lists, rotates and revokes', async () => {
    const created = await run(['keys', 'create', '--network', 'mainnet', '--rps', '10', '--label', 'ci']);
    expect(created.code).toBe(0);
    const key = keyOf(created.out)!;
    expect(key).toBeDefined();
    expect(created.out).toMatch(/Created key #1 for mainnet \(10 rps, burst 10, streams default\/default, label 'ci'\)/);

    const listed = await run(['keys', 'list']);
    expect(listed.out).toMatch(/1\s+tgk_\S+…\s+mainnet\s+10\s+10\s+default\/default\s+ci/);
    expect(listed.out).not.toContain(key);

    const rotatedFrom = Date.now();
    const rotated = await run(['keys', 'rotate', '1', '--grace', '60']);
    const rotatedBy = Date.now();
    expect(rotated.code).toBe(0);
    const newKey = keyOf(rotated.out)!;
    expect(newKey).not.toBe(key);
    expect(rotated.out).toMatch(/Rotated key #1 → new key #2/);

    const revoked = await run(['keys', 'revoke', '2']);
    expect(revoked.code).toBe(0);
    const json = JSON.parse((await run(['keys', 'list', '--json'])).out) as {
      id: number;
      revoked_at: string | null;
      replaced_by: number | null;
      expires_at: string | null;
    }[];
    expect(json.find((k) => k.id === 2)?.revoked_at).toBeTruthy();
    expect(json.find((k) => k.id === 1)?.replaced_by).toBe(2);
    // The old key lives on for the 60 s grace from its rotation (however long these commands take on a busy machine).
    const expiresAt = new Date(json.find((k) => k.id === 1)!.expires_at!).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(rotatedFrom + 60_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(rotatedBy + 60_000 + 1000);
  });

  it('rejects bad arguments with usage errors before touching the database', async () => {
    expect((await run(['keys', 'create', '--network', 'devnet'])).code).toBe(2);
    expect((await run(['keys', 'create', '--network', 'mainnet', '--rps', '0'])).code).toBe(2);
    expect((await run(['keys', 'revoke', 'abc'])).code).toBe(2);
    expect((await run(['keys', 'revoke', '999'])).code).toBe(2);
    expect((await run(['keys', 'frobnicate'])).code).toBe(2);
    expect((await run(['nonsense'])).code).toBe(2);
  });
});

describe('tongate keys through a running server (admin endpoint)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-cli-admin-'));
  let store: Store;
  let admin: RunningServer;
  let token: string;
  beforeAll(async () => {
    // The commands read their database from the environment; restored after the suite (vi.unstubAllEnvs).
    vi.stubEnv('TONGATE_DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', undefined);
    // The "server" holds the embedded database open, as `tongate start` does.
    store = await openIndexStore({ dataDir });
    await store.migrate();
    token = newAdminToken();
    admin = await listen(createAdminApp({ token, keys: store.keys }), 0, '127.0.0.1');
    writeAdminFile(dataDir, `http://127.0.0.1:${admin.port}`, token);
  });
  afterEach(() => {});
  afterAll(async () => {
    vi.unstubAllEnvs();
    removeAdminFile(dataDir, token);
    await admin.close(500);
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates and revokes keys in the server-owned database', async () => {
    const created = await run([
      'keys',
      'create',
      '--network',
      'testnet',
      '--rps',
      '3',
      '--burst',
      '6',
      '--stream-connections',
      '4',
      '--stream-addresses',
      'unlimited',
    ]);
    expect(created.code).toBe(0);
    expect(created.out).toContain('streams 4/unlimited');
    const key = keyOf(created.out)!;
    const row = await store.keys.findByHash(hashKey(key));
    expect(row).toMatchObject({ network: 'testnet', rps: 3, burst: 6, stream_connections: 4, stream_addresses: -1 });
    expect((await run(['keys', 'revoke', String(row!.id)])).code).toBe(0);
    expect((await store.keys.get(row!.id))?.revoked_at).toBeInstanceOf(Date);
  });

  it('refuses a wrong admin token', async () => {
    const file = readAdminFile(dataDir)!;
    const res = await fetch(`${file.url}/admin/keys`, { headers: { authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
  });
});
