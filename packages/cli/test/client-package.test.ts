/**
 * @tongate/client as another repository gets it: `npm run pack` in packages/client gives one tarball (the generated
 * SDK inside it), which installs into an empty project outside the monorepo from the npm cache, type-checks a
 * consumer, and runs on plain node (no TypeScript loader) against a running tongate and the Prism mock.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';
import { repoRoot, until } from './service.js';

const CONSUMER = `import { createTonGateClient, TonGateApiError, type TonGateClient } from '@tongate/client';

declare const process: { argv: string[] };
const [baseUrl, apiKey, address] = process.argv.slice(2) as [string, string, string];
const ton: TonGateClient = createTonGateClient({ baseUrl, apiKey });

const head = await ton.v2.getMasterchainInfo();
const seqno: number = head.last.seqno;
const balance: string = await ton.v2.jsonRpc('getAddressBalance', { address });
const account = await ton.v3.getAddressInformation({ address });
const v3Balance: string = account.balance;
let refused = 0;
try {
  await createTonGateClient({ baseUrl, apiKey: 'tgk_unknown' }).v2.getMasterchainInfo();
} catch (err) {
  refused = err instanceof TonGateApiError ? err.status : -1;
}
console.log(JSON.stringify({ seqno, balance, v3Balance, refused }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    lib: ['ES2023', 'DOM'],
    types: [],
    skipLibCheck: false,
    outDir: 'out',
  },
  files: ['consumer.ts'],
};

describe('the packed @tongate/client in a project of its own', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'tongate-client-pack-'));
  const project = path.join(work, 'consumer');
  let gateway: TestGateway;
  let mock: ChildProcess | undefined;
  let mockUrl: string;

  beforeAll(async () => {
    const tarball = execFileSync('node', [path.join(repoRoot, 'packages/client/scripts/pack.mjs'), '--out', work], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // From the tarball and the npm cache only (the monorepo's own install filled it with zod).
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: project, stdio: 'pipe' });
    writeFileSync(path.join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));

    gateway = await startTestGateway();
    mock = spawn('node', [path.join(repoRoot, 'tools/mock.mjs'), '--port', '0', '--v2-port', '0', '--v3-port', '0'], { cwd: repoRoot });
    let out = '';
    mock.stdout!.on('data', (d) => (out += d));
    mock.stderr!.on('data', (d) => (out += d));
    mockUrl = await until('the mock', 60_000, async () => /mock gateway:\s+(\S+)\/api\/v2/.exec(out)?.[1]);
  }, 300_000);

  afterAll(async () => {
    mock?.kill('SIGTERM');
    await gateway?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('holds compiled ESM with declarations, the SDK inside, and nothing else from the monorepo', () => {
    const installed = path.join(project, 'node_modules');
    expect(readdirSync(installed).sort()).toEqual(['.package-lock.json', '@tongate', 'zod']);
    expect(readdirSync(path.join(installed, '@tongate'))).toEqual(['client']);
    const files = readdirSync(path.join(installed, '@tongate/client/dist'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'index.d.ts', 'client.js', 'client.d.ts']));
    expect(files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toBe(false);
    expect(readdirSync(path.join(installed, '@tongate/client/node_modules/@tongate'))).toEqual(['sdk']);
  });

  it('type-checks a consumer, which then runs on plain node against tongate and the Prism mock', async () => {
    const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
    execFileSync(tsc, ['-p', project], { cwd: project, encoding: 'utf8' });
    // Asynchronously: the gateway answers from this process's event loop.
    const run = async (...args: string[]) =>
      JSON.parse(
        (await promisify(execFile)('node', [path.join(project, 'out/consumer.js'), ...args], { cwd: project, encoding: 'utf8' })).stdout,
      ) as Record<string, unknown>;

    const faucet = gateway.gateway.devnets.mainnet!.faucet.address.toString();
    const live = await run(`http://127.0.0.1:${gateway.ports.mainnet}`, await gateway.createKey('mainnet'), faucet);
    expect(live.seqno).toBeGreaterThan(0);
    expect(BigInt(live.balance as string)).toBeGreaterThan(0n);
    expect(live.v3Balance).toBe(live.balance);
    expect(live.refused).toBe(401);

    const mocked = await run(mockUrl, 'any-key', faucet);
    expect(typeof mocked.seqno).toBe('number');
    expect(mocked.balance).toMatch(/^[0-9]+$/);
    expect(mocked.refused).toBe(0); // the mock takes any key
  });

  it('a consumer that misuses the API does not type-check', () => {
    writeFileSync(path.join(project, 'consumer.ts'), `${CONSUMER}\nconst wrong: string = head.last.seqno;\n`);
    const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
    let diagnostics = '';
    try {
      execFileSync(tsc, ['-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      diagnostics = String((err as { stdout?: string }).stdout);
    }
    expect(diagnostics).toMatch(/consumer\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  });
});
