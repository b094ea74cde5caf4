import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { REPO_ROOT } from './spec.js';

const execFileAsync = promisify(execFile);

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs tools/generate.mjs with `args`; never throws on a non-zero exit. */
export async function runGenerate(args: string[]): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [path.join(REPO_ROOT, 'tools/generate.mjs'), ...args], {
      cwd: REPO_ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
