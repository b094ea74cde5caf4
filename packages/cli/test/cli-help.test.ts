/**
 * Every command answers --help with its options, and a bad option or value gets one line saying what is wrong and
 * one line of usage (exit 2), never a stack trace. The logs are readable on a terminal and JSON otherwise.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig, ConfigError } from '@tongate/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readableLogLine, wantsReadableLogs } from '../src/log-output.js';
import { commandPaths, main } from '../src/main.js';
import { repoRoot as root } from './service.js';

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

/** The options each command takes; a command added without its entry here fails the first test. */
const OPTIONS: Record<string, string[]> = {
  start: ['--seed'],
  'keys create': ['--network', '--rps', '--burst', '--label', '--expires', '--stream-connections', '--stream-addresses'],
  'keys list': ['--json'],
  'keys revoke': [],
  'keys rotate': ['--grace'],
  'devnet seed': ['--network'],
  'devnet complain': ['--network', '--validator'],
  'devnet liteserver': ['--network', '--port', '--host', '--config-out'],
  index: ['--network'],
  config: [],
  'actions classify': [],
};

function expectOneLineOfUsage(r: { code: number; out: string; err: string }, command: string, problem: string) {
  expect(r.code).toBe(2);
  const lines = r.err.split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe(`tongate: ${problem}`);
  expect(lines[1]!.startsWith(`usage: tongate ${command} `)).toBe(true);
  expect(r.err).not.toMatch(/Error|\n\s+at /);
}

describe('tongate --help', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists every command', async () => {
    const paths = commandPaths().map((p) => p.join(' '));
    expect(paths.sort()).toEqual(Object.keys(OPTIONS).sort());
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      for (const p of paths) expect(r.out).toContain(`tongate ${p}`);
    }
    // No command at all: the same list, as a usage error.
    expect((await run([])).code).toBe(2);
  });

  it.each(Object.entries(OPTIONS))('%s --help lists its options', async (command, options) => {
    const r = await run([...command.split(' '), '--help']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out.split('\n')[0]).toMatch(new RegExp(`^usage: tongate ${command}\\b`));
    for (const option of [...options, '--help']) expect(r.out).toMatch(new RegExp(`^  (-h, )?${option}\\b.*\\S`, 'm'));
    // -h after other arguments works too.
    expect((await run([...command.split(' '), 'x', '-h'])).out).toBe(r.out);
  });

  it.each(['keys', 'devnet', 'actions'])('%s --help lists its subcommands', async (group) => {
    const r = await run([group, '--help']);
    expect(r.code).toBe(0);
    for (const p of commandPaths().filter((p) => p[0] === group)) expect(r.out).toContain(`tongate ${p.join(' ')}`);
  });

  it.each(Object.keys(OPTIONS))('%s refuses an unknown option with one line of usage', async (command) => {
    expectOneLineOfUsage(await run([...command.split(' '), '--no-such-option']), command, "unknown option '--no-such-option'");
  });

  it('refuses bad values, missing values and extra arguments the same way, before touching a database', async () => {
    expectOneLineOfUsage(
      await run(['keys', 'create', '--network', 'devnet']),
      'keys create',
      "--network must be mainnet or testnet, got 'devnet'",
    );
    expectOneLineOfUsage(
      await run(['keys', 'create', '--network', 'mainnet', '--rps', '0']),
      'keys create',
      "--rps must be a positive integer, got '0'",
    );
    expectOneLineOfUsage(
      await run(['keys', 'create', '--network', 'mainnet', '--stream-connections', 'lots']),
      'keys create',
      "--stream-connections must be a whole number or 'unlimited', got 'lots'",
    );
    expectOneLineOfUsage(
      await run(['devnet', 'liteserver', '--port', 'abc']),
      'devnet liteserver',
      "--port must be a positive integer, got 'abc'",
    );
    expectOneLineOfUsage(
      await run(['devnet', 'complain', '--validator', 'xyz']),
      'devnet complain',
      "--validator must be a public key as 64 hex digits, got 'xyz'",
    );
    expectOneLineOfUsage(await run(['index', '--network']), 'index', "option '--network' needs a value");
    expectOneLineOfUsage(await run(['index']), 'index', '--network must be mainnet or testnet');
    expectOneLineOfUsage(await run(['start', '--seed=yes']), 'start', "option '--seed' takes no value");
    expectOneLineOfUsage(await run(['keys', 'revoke', '1', '2']), 'keys revoke', "unexpected argument '2'");
    expectOneLineOfUsage(await run(['keys', 'rotate', 'abc']), 'keys rotate', "expected a key id (see 'tongate keys list'), got 'abc'");
    expectOneLineOfUsage(await run(['actions', 'classify']), 'actions classify', 'missing argument <fixture.json>');
    expectOneLineOfUsage(await run(['keys', 'frobnicate']), 'keys', "unknown keys command 'frobnicate'");
    expectOneLineOfUsage(await run(['nonsense']), '<command>', "unknown command 'nonsense'");
  });

  it('as a process: --help exits 0 and a bad option exits 2 with two lines on stderr', () => {
    const tsx = path.join(root, 'node_modules/.bin/tsx');
    const mainTs = path.join(root, 'packages/cli/src/main.ts');
    const help = spawnSync(tsx, [mainTs, 'devnet', 'liteserver', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--config-out <FILE>');
    expect(help.stderr).toBe('');
    const bad = spawnSync(tsx, [mainTs, 'devnet', 'liteserver', '--colour'], { cwd: root, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trimEnd().split('\n')).toEqual([
      "tongate: unknown option '--colour'",
      "usage: tongate devnet liteserver [--network <mainnet|testnet>] [--port <N>...] [--host <ADDRESS>] [--config-out <FILE>]  ('tongate devnet liteserver --help' for details)",
    ]);
  });
});

describe('logs', () => {
  it('are readable on a terminal and JSON otherwise, unless a format is asked for', () => {
    expect(wantsReadableLogs('auto', true)).toBe(true);
    expect(wantsReadableLogs('auto', false)).toBe(false);
    expect(wantsReadableLogs('json', true)).toBe(false);
    expect(wantsReadableLogs('pretty', false)).toBe(true);
    expect(loadConfig({ TONGATE_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(() => loadConfig({ TONGATE_LOG_FORMAT: 'xml' })).toThrow(ConfigError);
  });

  it('a readable line has the time, the level, the message and the fields; an error its stack', () => {
    const time = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    expect(readableLogLine(JSON.stringify({ level: 30, time, msg: 'listening', network: 'mainnet', port: 8080, note: 'two words' }))).toBe(
      '03:04:05.678 INFO  listening  network=mainnet port=8080 note="two words"\n',
    );
    const withError = readableLogLine(
      JSON.stringify({ level: 50, time, msg: 'failed', err: { message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' } }),
    );
    expect(withError.split('\n')).toEqual(['03:04:05.678 ERROR failed', '    Error: boom', '        at f (x.ts:1:1)', '']);
    expect(readableLogLine('not json')).toBe('not json\n');
  });

  it('the process logger writes JSON into a pipe and readable lines when asked (a real process)', () => {
    const tsx = path.join(root, 'node_modules/.bin/tsx');
    const child = path.join(root, 'packages/cli/test/log-child.ts');
    const env = (format?: string) => ({ ...process.env, TONGATE_LOG_FORMAT: format ?? '', NO_COLOR: '1' });
    const piped = spawnSync(tsx, [child], { cwd: root, encoding: 'utf8', env: env() });
    const records = piped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; port?: number });
    expect(records.map((r) => r.msg)).toEqual(['listening', 'request failed']);
    expect(records[0]!.port).toBe(8080);
    const readable = spawnSync(tsx, [child], { cwd: root, encoding: 'utf8', env: env('pretty') });
    const lines = readable.stdout.split('\n');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  listening {2}network=mainnet port=8080$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR request failed$/);
    expect(lines[2]).toBe('    Error: boom');
  });
});
