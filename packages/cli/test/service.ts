import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export { freePort } from './gateway-fixture.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The environment of a `tongate start` on an embedded database, a fresh data dir and the two given ports. */
export function serviceEnv(dataDir: string, mainnetPort: number, testnetPort: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: '',
    REDIS_URL: '',
    TONGATE_DATA_DIR: dataDir,
    TONGATE_MAINNET_PORT: String(mainnetPort),
    TONGATE_TESTNET_PORT: String(testnetPort),
    TONGATE_KEYLESS_RPS: '1000',
    TONGATE_LOG_LEVEL: 'warn',
    TONGATE_DEVNET_BLOCK_INTERVAL_MS: '1000',
  };
}

export interface RunningService {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
}

/** Spawns `command args` and waits until it prints that tongate is running (fails if it exits or takes too long). */
export async function startService(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 110_000): Promise<RunningService> {
  const child = spawn(command, args, { env, cwd: repoRoot });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const started = Date.now();
  while (!output.includes('tongate is running')) {
    if (child.exitCode !== null) throw new Error(`${path.basename(command)} ${args.join(' ')} exited: ${output}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${path.basename(command)} ${args.join(' ')} did not come up: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => output };
}

/** Polls `probe` until it gives a value (or throws after `timeoutMs`, naming `what`). */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
