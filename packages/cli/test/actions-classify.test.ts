import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyTrace, readGoldenFixture, toV3Action, type V3Action } from '@tongate/actions';
import { fixturePath } from '@tongate/testdata';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const mainTs = path.join(root, 'packages/cli/src/main.ts');

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [mainTs, ...args], { cwd: root, env: process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Top-level fields of the fixtures' expected entries and their v3 names (README "Common to all types"). */
const TOP_LEVEL: Record<string, keyof V3Action> = { success: 'success', tx_hashes: 'transactions', accounts: 'accounts' };

const CASES = [
  'cocoon--cocoon-worker-payout.json',
  'jetton-transfer--failed-jetton-transfer-external-only.json',
  'ton-transfers--failed-ton-transfer-external-in-only.json',
  'jetton-mints--jetton-mint-0x642b7d07-failed.json',
  // the two that match only by the reference's conventions (packages/actions/README.md)
  'tgbtc--tgbtc-burn-with-strange-burn-notification.json',
  'tonco--tonco-swap-ton-to-kuku.json',
];

describe('tongate actions classify <fixture.json> (real CLI process)', () => {
  for (const name of CASES) {
    it(`prints the v3 actions of ${name}`, async () => {
      const file = fixturePath('actions', name);
      const { code, stdout, stderr } = await runCli(['actions', 'classify', file]);
      expect(stderr.replace(/npm warn.*\n/g, '')).toBe('');
      expect(code).toBe(0);
      const printed = JSON.parse(stdout) as V3Action[];
      const fixture = readGoldenFixture(file);
      // the same objects the library gives, including accounts
      expect(printed).toEqual(classifyTrace(fixture).map((a) => toV3Action(a, { includeAccounts: true })));
      for (const entry of fixture.expected_actions) {
        const ofType = printed.filter((a) => a.type === entry.type);
        expect(ofType).toHaveLength(1);
        for (const [field, v3] of Object.entries(TOP_LEVEL)) {
          const expected = entry.values?.[field];
          if (expected === undefined) continue;
          const actual = ofType[0][v3];
          expect(Array.isArray(expected) ? [...(actual as string[])].sort() : actual).toEqual(
            Array.isArray(expected) ? [...expected].sort() : expected,
          );
        }
      }
    });
  }

  it('answers a missing file and a file of another format with exit code 2 and a message', async () => {
    const missing = await runCli(['actions', 'classify', '/nonexistent/trace.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file: /nonexistent/trace.json');
    const dir = mkdtempSync(path.join(tmpdir(), 'tongate-actions-'));
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 'something-else' }));
    const wrong = await runCli(['actions', 'classify', other]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('not a ton-actions-golden/1 fixture');
    const noArg = await runCli(['actions', 'classify']);
    expect(noArg.code).toBe(2);
    expect(noArg.stderr).toContain('usage: tongate actions classify <fixture.json>');
  });
});
