import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot, serviceEnv, startService } from './service.js';

// The production build: every workspace package compiled to dist/ (its tsconfig.build.json, what `npm run build`
// runs per package), then the service started from the compiled output by plain node, no transpiler loaded.
// `npm test` builds every package before this file runs (turbo: the cli's tests depend on every build); a package whose
// sources changed since its last build (a run of this file alone) is built here first, so the service never starts
// from stale output.

const run = promisify(execFile);
const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');

/** Every workspace package with a production build (packages/* and generated/*). */
function buildablePackages(): string[] {
  return ['packages', 'generated'].flatMap((group) =>
    readdirSync(path.join(repoRoot, group))
      .map((name) => path.join(repoRoot, group, name))
      .filter((dir) => existsSync(path.join(dir, 'package.json'))),
  );
}

/** Newest modification time of the files of `dir` a build may read: not its output, dependencies, tests or tool state
 * (`.turbo/` holds the logs of the running tasks, this one's included). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['dist', 'node_modules', 'test'].includes(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** True when the package has no build yet, or a source, its package.json or a tsconfig changed after it. */
function needsBuild(dir: string): boolean {
  const buildInfo = path.join(dir, 'dist/.tsbuildinfo');
  if (!existsSync(buildInfo)) return true;
  const built = statSync(buildInfo).mtimeMs;
  return newestSource(dir) > built || statSync(path.join(repoRoot, 'tsconfig.base.json')).mtimeMs > built;
}

describe('production build (compiled output on plain node)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-prod-'));
  let child: ChildProcess | undefined;
  let mainnetPort: number;

  beforeAll(async () => {
    const packages = buildablePackages();
    for (const dir of packages) {
      // A package without a build would leave node resolving its TypeScript sources at run time.
      expect(existsSync(path.join(dir, 'tsconfig.build.json')), `${path.relative(repoRoot, dir)} has no tsconfig.build.json`).toBe(true);
      if (needsBuild(dir)) await run(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.build.json')], { cwd: dir });
    }
    mainnetPort = await freePort();
    const env = serviceEnv(dataDir, mainnetPort, await freePort());
    // The production start the README documents: node, the tongate-dist export condition, the compiled entry point.
    const service = await startService(process.execPath, ['--conditions=tongate-dist', 'packages/cli/dist/main.js', 'start'], {
      ...env,
      NODE_OPTIONS: '',
    });
    child = service.child;
  }, 300_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /healthcheck and v2 over REST and JSON-RPC', async () => {
    const health = await fetch(`http://127.0.0.1:${mainnetPort}/healthcheck`);
    expect(health.status).toBe(200);
    const rest = await fetch(`http://127.0.0.1:${mainnetPort}/api/v2/getMasterchainInfo`);
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { result: { '@type': string } }).result['@type']).toBe('blocks.masterchainInfo');
    const rpc = await fetch(`http://127.0.0.1:${mainnetPort}/api/v2/jsonRPC`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getAddressBalance',
        params: { address: 'EQBsyfA5o-WPrOpEbLqpLCZ-9FEIazZ4BBPx_Rkc_yRCh9eE' },
      }),
    });
    expect(rpc.status).toBe(200);
    expect(await rpc.json()).toMatchObject({ ok: true, result: '1000000000000000000', id: 1, jsonrpc: '2.0' });
  });

  it('runs only compiled JavaScript: no workspace module came from a .ts file', async () => {
    // The entry point and every @tongate package resolve to dist/ under the tongate-dist condition.
    const { stdout } = await run(process.execPath, ['--conditions=tongate-dist', '--input-type=module', '-e', RESOLVE_ALL], {
      cwd: path.join(repoRoot, 'packages/cli'),
    });
    const resolved = JSON.parse(stdout) as Record<string, string>;
    expect(Object.keys(resolved).length).toBeGreaterThanOrEqual(8);
    for (const [name, file] of Object.entries(resolved)) expect(file, name).toMatch(/\/dist\/index\.js$/);
  });
});

/** Prints where each @tongate workspace package resolves from the cli package. */
const RESOLVE_ALL = `
import { readdirSync } from 'node:fs';
const names = readdirSync('../../node_modules/@tongate').filter((n) => n !== 'tools');
const out = {};
for (const n of names) out['@tongate/' + n] = new URL(import.meta.resolve('@tongate/' + n)).pathname;
console.log(JSON.stringify(out));
`;
