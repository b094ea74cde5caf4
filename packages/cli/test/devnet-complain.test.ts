/**
 * `tongate devnet complain` against a running server's admin endpoint, with a real devnet behind it: refused before
 * the devnet's elector has elected a set, then filed against a validator of the validating set — the complaint is in
 * the elector's state (show_complaint) and the devnet validators vote it through.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TupleReader } from '@ton/core';
import { decodeValidatorSet, readShowComplaint } from '@tongate/contracts';
import { createDevnet, ELECTOR_ADDRESS, type Devnet } from '@tongate/devnet';
import { createAdminApp, listen, newAdminToken, removeAdminFile, writeAdminFile, type RunningServer } from '@tongate/server';
import { type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/main.js';
import { until } from './service.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((s: string) => void errors.push(String(s)));
  try {
    const code = await main(args, (s) => lines.push(s));
    return { code, out: lines.join('\n'), err: errors.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('tongate devnet complain', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-cli-complain-'));
  let store: Store;
  let admin: RunningServer;
  let token: string;
  let devnet: Devnet;
  beforeAll(async () => {
    vi.stubEnv('TONGATE_DATA_DIR', dataDir);
    vi.stubEnv('DATABASE_URL', undefined);
    store = await openIndexStore({ dataDir });
    await store.migrate();
    devnet = await createDevnet({
      network: 'testnet',
      blockIntervalMs: 500,
      electionTiming: { validatorsElectedFor: 30, electionsStartBefore: 15, electionsEndBefore: 5, stakeHeldFor: 5 },
    });
    token = newAdminToken();
    admin = await listen(createAdminApp({ token, keys: store.keys, devnets: { testnet: devnet } }), 0, '127.0.0.1');
    writeAdminFile(dataDir, `http://127.0.0.1:${admin.port}`, token);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    removeAdminFile(dataDir, token);
    await admin?.close(500);
    await devnet?.close();
    await store?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks its arguments, and names a network without a devnet', async () => {
    expect((await run(['devnet', 'complain', '--network', 'testnet', '--validator', 'xyz'])).err).toContain(
      '--validator must be a public key',
    );
    const none = await run(['devnet', 'complain', '--network', 'mainnet']);
    expect(none.code).toBe(1);
    expect(none.err).toContain('no devnet for network mainnet');
    // The admin endpoint itself names a bad or unknown field (400) before it touches the devnet.
    const post = async (body: unknown) => {
      const r = await fetch(`http://127.0.0.1:${admin.port}/admin/devnet/testnet/complaint`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as { error: string } };
    };
    expect(await post({ colour: 1 })).toEqual({ status: 400, body: { error: 'unknown field: colour' } });
    expect(await post({ severity: 256 })).toEqual({ status: 400, body: { error: 'severity: expected an integer 0…255' } });
    expect(await post({ suggestedFine: '-1' })).toEqual({
      status: 400,
      body: { error: 'suggestedFine: expected nanotons as a decimal string' },
    });
  });

  it('is refused until the elector has elected a set, then files a complaint the devnet validators pass', async () => {
    const early = await run(['devnet', 'complain', '--network', 'testnet']);
    expect(early.code).toBe(1);
    expect(early.err).toContain('no validator set elected by the devnet elector');

    await devnet.seed();
    const validating = await until('a set elected by the elector, validating', 90_000, async () => {
      const { state } = await devnet.electionStatus();
      const p34 = decodeValidatorSet((await devnet.getConfigParam(34))!);
      const active = state.pastElections.find((p) => p.electionId === state.activeId && p.vsetHash === p34.hash);
      return active && active.unfreezeAt - Math.floor(Date.now() / 1000) > 15 ? { active, p34 } : null;
    });
    const accused = validating.p34.validators[0].pubkey;
    const filed = await run(['devnet', 'complain', '--network', 'testnet', '--validator', accused]);
    expect(filed.err).toBe('');
    expect(filed.code).toBe(0);
    const [, hash, pubkey, electionId] = /Filed complaint ([0-9a-f]{64}) against ([0-9a-f]{64}) in election (\d+)/.exec(filed.out)!;
    expect(pubkey).toBe(accused);
    expect(Number(electionId)).toBe(validating.active.electionId);
    const passed = await until('the complaint passed', 30_000, async () => {
      const r = await devnet.runGetMethod(ELECTOR_ADDRESS, 'show_complaint', [
        { type: 'int', value: BigInt(electionId) },
        { type: 'int', value: BigInt('0x' + hash) },
      ]);
      const c = readShowComplaint(new TupleReader(r.stack));
      return c && c.weightRemaining < 0n ? c : null;
    });
    expect(passed.complaint.validatorPubkey).toBe(accused);
  });
});
