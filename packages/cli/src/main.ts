#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, readAdminFile, settingsTableMarkdown, type Config, type Network } from '@tongate/server';
import type { KeyAdmin, RemoteKeyAdmin } from './key-admin.js';
import { keysTable, streamPlanText } from './format.js';

// Each command imports what it runs when it runs (the server and devnets, the store, the classifier): `--help`, a
// usage error or `actions classify` does not load the whole service first.

/** An option of a command: `--name <value>` (string) or `--name` (boolean), with the words its help prints. */
interface OptionSpec {
  type: 'string' | 'boolean';
  value?: string;
  help: string;
  /** The option may be given several times; its value is then the list of them. */
  multiple?: boolean;
}

/** What a command's run gets: its parsed options and positional arguments, and where to print. */
interface Invocation {
  values: Record<string, string | string[] | boolean | undefined>;
  positionals: string[];
  out: (s: string) => void;
  /** The configuration (environment / TONGATE_CONFIG), read only by the commands that need it. */
  config: () => Config;
}

interface CommandSpec {
  /** The words that name it: `['keys', 'create']`. */
  path: string[];
  /** Positional arguments as the usage line shows them, e.g. `<id>`. */
  args?: string;
  /** How many positional arguments it takes (default none). */
  positionals?: number;
  summary: string;
  options: Record<string, OptionSpec>;
  run(inv: Invocation): Promise<void> | void;
}

const NETWORK_OPTION = (help: string): OptionSpec => ({ type: 'string', value: 'mainnet|testnet', help });

class UsageError extends Error {}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a positive integer, got '${raw}'`);
  return Number(raw);
}

/** A plan limit of a key: a whole number, or `unlimited` (stored as -1); absent = the deployment's default (null). */
function planLimit(name: string, raw: string | undefined): number | null {
  if (raw === undefined) return null;
  if (raw === 'unlimited') return -1;
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number or 'unlimited', got '${raw}'`);
  return Number(raw);
}

function idArg(raw: string | undefined): number {
  if (!raw || !/^\d+$/.test(raw)) throw new UsageError(`expected a key id (see 'tongate keys list'), got '${raw ?? ''}'`);
  return Number(raw);
}

function network(raw: string | undefined): Network {
  if (raw !== 'mainnet' && raw !== 'testnet') throw new UsageError(`--network must be mainnet or testnet${raw ? `, got '${raw}'` : ''}`);
  return raw;
}

const str = (v: string | string[] | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: string | string[] | boolean | undefined): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []);

async function withKeyAdmin<T>(config: Config, use: (admin: KeyAdmin) => Promise<T>): Promise<T> {
  const { openKeyAdmin } = await import('./key-admin.js');
  const admin = await openKeyAdmin(config);
  try {
    return await use(admin);
  } finally {
    await admin.close();
  }
}

async function runningServer(config: Config, hint: string): Promise<RemoteKeyAdmin> {
  const adminFile = readAdminFile(config.dataDir);
  const { RemoteKeyAdmin } = await import('./key-admin.js');
  const remote = adminFile ? new RemoteKeyAdmin(adminFile) : undefined;
  if (!remote || !(await remote.ping())) throw new UsageError(`no running server found for data dir ${config.dataDir}; ${hint}`);
  return remote;
}

/** Waits for SIGTERM or SIGINT, then runs `close` once and exits with its outcome. */
function exitOnSignal(close: () => Promise<void>, announce?: (signal: string) => void): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    announce?.(signal);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

const COMMANDS: CommandSpec[] = [
  {
    path: ['start'],
    summary: 'run the server (configuration: environment variables or TONGATE_CONFIG; `tongate config` lists them)',
    options: { seed: { type: 'boolean', help: 'make realistic activity on each devnet once started' } },
    async run({ values, out, config: readConfig }) {
      const config = readConfig();
      const { startGateway } = await import('./start.js');
      const gateway = await startGateway(config, { seed: values.seed === true });
      const mainnetPort = config.mainnet.port || gateway.servers[0]?.port;
      const testnetPort = config.testnet.port || mainnetPort;
      out('tongate is running');
      out(`  mainnet  http://${config.mainnet.hosts[0]}:${mainnetPort}/api/v2/   (also http://127.0.0.1:${mainnetPort}/)`);
      out(`  testnet  http://${config.testnet.hosts[0]}:${testnetPort}/api/v2/   (also http://127.0.0.1:${testnetPort}/)`);
      out('  docs     /api/v2/ and /api/v3/ on either host; metrics /metrics; health /healthcheck');
      for (const [n, devnet] of Object.entries(gateway.devnets)) {
        if (!devnet) continue;
        out(`  ${n} faucet ${devnet.faucet.address.toString({ testOnly: n === 'testnet' })}`);
        out(`    mnemonic: ${devnet.faucet.mnemonic.join(' ')}`);
      }
      const faucet = gateway.devnets.mainnet?.faucet.address.toString() ?? '';
      out('Try:');
      out(`  curl 'http://${config.mainnet.hosts[0]}:${mainnetPort}/api/v2/getMasterchainInfo'`);
      out(`  curl 'http://${config.mainnet.hosts[0]}:${mainnetPort}/api/v2/getAddressBalance?address=${faucet}'`);
      out(
        `  curl -X POST 'http://${config.mainnet.hosts[0]}:${mainnetPort}/api/v2/jsonRPC' -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getMasterchainInfo","params":{}}'`,
      );
      out(`  npm run tongate -- keys create --network mainnet --rps 10 --label me`);
      exitOnSignal(
        () => gateway.close(),
        (signal) => out(`${signal}: draining in-flight requests…`),
      );
    },
  },
  {
    path: ['keys', 'create'],
    summary: 'create an API key; prints it once',
    options: {
      network: NETWORK_OPTION('the network the key works on (required)'),
      rps: { type: 'string', value: 'N', help: 'requests per second (default TONGATE_DEFAULT_PLAN_RPS)' },
      burst: { type: 'string', value: 'N', help: 'burst (default: the rps given, else TONGATE_DEFAULT_PLAN_BURST)' },
      label: { type: 'string', value: 'TEXT', help: 'a label to recognise the key by' },
      expires: { type: 'string', value: 'ISO-DATE', help: 'the key stops working at this time' },
      'stream-connections': {
        type: 'string',
        value: 'N',
        help: "Streaming API: concurrent streams, 0 for none, or 'unlimited' (default TONGATE_STREAM_KEY_CONNECTIONS)",
      },
      'stream-addresses': {
        type: 'string',
        value: 'N',
        help: "Streaming API: addresses per stream, or 'unlimited' (default TONGATE_STREAM_KEY_ADDRESSES)",
      },
    },
    async run({ values, out, config: readConfig }) {
      const config = readConfig();
      // Checked before the database is touched.
      const rps = positiveInt('rps', str(values.rps), config.defaultPlanRps);
      const burst = positiveInt('burst', str(values.burst), values.rps ? rps : config.defaultPlanBurst);
      let expiresAt: Date | null = null;
      if (values.expires) {
        expiresAt = new Date(String(values.expires));
        if (Number.isNaN(expiresAt.getTime())) throw new UsageError(`--expires must be a date, got '${values.expires}'`);
      }
      const streamConnections = planLimit('stream-connections', str(values['stream-connections']));
      const streamAddresses = planLimit('stream-addresses', str(values['stream-addresses']));
      const input = {
        network: network(str(values.network)),
        rps,
        burst,
        label: str(values.label) ?? '',
        expiresAt,
        streamConnections,
        streamAddresses,
      };
      await withKeyAdmin(config, async (admin) => {
        const { key, record } = await admin.create(input);
        out(
          `Created key #${record.id} for ${record.network} (${record.rps} rps, burst ${record.burst}, streams ${streamPlanText(record)}${record.label ? `, label '${record.label}'` : ''}).`,
        );
        out(`Key (shown once, store it now): ${key}`);
      });
    },
  },
  {
    path: ['keys', 'list'],
    summary: 'list the API keys (never the keys themselves)',
    options: { json: { type: 'boolean', help: 'print JSON instead of a table' } },
    async run({ values, out, config }) {
      await withKeyAdmin(config(), async (admin) => {
        const records = await admin.list();
        out(values.json ? JSON.stringify(records, null, 2) : records.length ? keysTable(records) : 'no keys');
      });
    },
  },
  {
    path: ['keys', 'revoke'],
    args: '<id>',
    positionals: 1,
    summary: 'revoke a key; running servers reject it within a second',
    options: {},
    async run({ positionals, out, config }) {
      const id = idArg(positionals[0]);
      await withKeyAdmin(config(), async (admin) => {
        const record = await admin.revoke(id);
        if (!record) throw new UsageError(`no key with id ${id}`);
        out(`Revoked key #${id} (${record.key_prefix}…); running servers reject it within a second.`);
      });
    },
  },
  {
    path: ['keys', 'rotate'],
    args: '<id>',
    positionals: 1,
    summary: 'issue a new key for a key; the old one stays valid for the grace period',
    options: { grace: { type: 'string', value: 'SECONDS', help: 'how long the old key keeps working (default 86400)' } },
    async run({ values, positionals, out, config }) {
      const id = idArg(positionals[0]);
      const grace = values.grace !== undefined ? Number(values.grace) : 86_400;
      if (!Number.isFinite(grace) || grace < 0) throw new UsageError(`--grace must be a number of seconds >= 0, got '${values.grace}'`);
      await withKeyAdmin(config(), async (admin) => {
        const rotated = await admin.rotate(id, grace);
        if (!rotated) throw new UsageError(`no key with id ${id}`);
        out(`Rotated key #${id} → new key #${rotated.record.id}.`);
        out(`New key (shown once, store it now): ${rotated.key}`);
        out(`The old key stays valid until ${rotated.old.expires_at?.toISOString()} (grace ${grace} s).`);
      });
    },
  },
  {
    path: ['devnet', 'seed'],
    summary: "seed the running server's devnets with realistic activity",
    options: { network: NETWORK_OPTION('seed this network only (default both)') },
    async run({ values, out, config }) {
      const networks: Network[] = values.network ? [network(str(values.network))] : ['mainnet', 'testnet'];
      const remote = await runningServer(config(), "start it with 'tongate start --seed' instead");
      for (const n of networks) {
        const { status, data } = await remote.call<{ lastBlock?: { seqno: number }; error?: string }>('POST', `/admin/devnet/${n}/seed`);
        if (status !== 200) throw new Error(data.error ?? `seeding ${n} failed`);
        out(`Seeded ${n} devnet (last block ${data.lastBlock?.seqno ?? '?'}).`);
      }
    },
  },
  {
    path: ['devnet', 'complain'],
    summary: 'file a complaint against a devnet validator; the devnet validators vote for it',
    options: {
      network: NETWORK_OPTION('the devnet (default mainnet)'),
      validator: { type: 'string', value: 'PUBKEY-HEX', help: 'the validator to complain about (default: one of the set)' },
    },
    async run({ values, out, config }) {
      const net = network(str(values.network) ?? 'mainnet');
      const validator = str(values.validator);
      if (validator !== undefined && !/^[0-9a-fA-F]{64}$/.test(validator))
        throw new UsageError(`--validator must be a public key as 64 hex digits, got '${validator}'`);
      const remote = await runningServer(config(), "start it with 'tongate start --seed' first");
      const { status, data } = await remote.call<{ electionId?: number; complaintHash?: string; validatorPubkey?: string; error?: string }>(
        'POST',
        `/admin/devnet/${net}/complaint`,
        validator ? { validatorPubkey: validator } : {},
      );
      if (status !== 200) throw new Error(data.error ?? `filing a complaint on ${net} failed`);
      out(
        `Filed complaint ${data.complaintHash} against ${data.validatorPubkey} in election ${data.electionId} on the ${net} devnet; the devnet validators are voting for it.`,
      );
      out(`See it with: curl 'http://127.0.0.1:<port>/api/v3/validators/complaints?election_id=${data.electionId}'`);
    },
  },
  {
    path: ['devnet', 'liteserver'],
    summary: 'run a devnet served as an ADNL liteserver (one per --port, all of the same chain); prints its global config',
    options: {
      network: NETWORK_OPTION('the devnet (default mainnet)'),
      port: {
        type: 'string',
        value: 'N',
        multiple: true,
        help: 'TCP port; repeat it to serve the devnet as that many liteservers (default: one on any free port)',
      },
      host: { type: 'string', value: 'ADDRESS', help: 'interface to listen on (default 127.0.0.1)' },
      'config-out': { type: 'string', value: 'FILE', help: 'also write the global config to this file' },
    },
    async run({ values, out, config: readConfig }) {
      const net = network(str(values.network) ?? 'mainnet');
      const ports = (values.port === undefined ? ['0'] : strs(values.port)).map((p) => (p === '0' ? 0 : positiveInt('port', p, 0)));
      const host = str(values.host) ?? '127.0.0.1';
      const configOut = str(values['config-out']);
      const config = readConfig();
      const [{ startDevnetLiteserver }, { devnetElectionTiming }] = await Promise.all([
        import('./devnet-liteserver.js'),
        import('@tongate/devnet'),
      ]);
      const running = await startDevnetLiteserver({
        network: net,
        dataDir: path.resolve(config.dataDir, 'devnet-liteserver'),
        blockIntervalMs: config.devnetBlockIntervalMs,
        shards: config.devnetShards,
        consensus: config.devnetConsensus,
        electionTiming: devnetElectionTiming(config.devnetElectionCycleS),
        ports,
        host,
        configFile: configOut,
      });
      out(
        `devnet liteserver (${net}) on ${running.servers.map((s) => `${host}:${s.port}`).join(', ')}, faucet ${running.devnet.faucet.address.toString({ testOnly: net === 'testnet' })}`,
      );
      if (configOut)
        out(
          `global config written to ${configOut}; use it with TONGATE_${net.toUpperCase()}_BACKEND=liteserver TONGATE_${net.toUpperCase()}_LITESERVER_CONFIG=${configOut}`,
        );
      out(JSON.stringify(running.config, null, 2));
      exitOnSignal(() => running.close());
    },
  },
  {
    path: ['index'],
    summary: "run one network's indexer as its own process (one per network; PostgreSQL)",
    options: { network: NETWORK_OPTION('the network to index (required)') },
    async run({ values, out, config }) {
      const net = network(str(values.network));
      const { startIndexProcess } = await import('./index-command.js');
      const running = await startIndexProcess(config(), net);
      out(`tongate indexer for ${net} is running`);
      exitOnSignal(() => running.close());
    },
  },
  {
    path: ['config'],
    summary: 'print every setting with its environment variable, JSON key and default',
    options: {},
    run({ out }) {
      out(settingsTableMarkdown());
    },
  },
  {
    path: ['actions', 'classify'],
    args: '<fixture.json>',
    positionals: 1,
    summary: 'classify the trace of a golden fixture file; prints its v3 actions as JSON',
    options: {},
    async run({ positionals, out }) {
      if (positionals.length === 0) throw new UsageError('missing argument <fixture.json>');
      const { actionsCommand, ActionsUsageError } = await import('./actions-command.js');
      try {
        actionsCommand(['classify', ...positionals], out);
      } catch (err) {
        throw err instanceof ActionsUsageError ? new UsageError(err.message) : err;
      }
    },
  },
];

/** Every command's words, for the tests that check each one answers --help and refuses a bad option. */
export function commandPaths(): string[][] {
  return COMMANDS.map((c) => [...c.path]);
}

const GROUPS: Record<string, string> = {
  keys: 'manage API keys (in the database of the configuration)',
  devnet: 'work with the local devnets',
  actions: 'the action classifier',
};

function usageLine(cmd: CommandSpec): string {
  const options = Object.entries(cmd.options).map(([name, o]) => {
    const text = (o.type === 'string' ? `--${name} <${o.value ?? 'VALUE'}>` : `--${name}`) + (o.multiple ? '...' : '');
    return /\(required\)/.test(o.help) ? text : `[${text}]`;
  });
  return ['tongate', ...cmd.path, ...(cmd.args ? [cmd.args] : []), ...options].join(' ');
}

function commandHelp(cmd: CommandSpec): string {
  const lines = [`usage: ${usageLine(cmd)}`, '', `  ${cmd.summary}`];
  const entries = Object.entries(cmd.options);
  const all: [string, string][] = entries.map(([name, o]) => [
    o.type === 'string' ? `--${name} <${o.value ?? 'VALUE'}>` : `--${name}`,
    o.help,
  ]);
  all.push(['-h, --help', 'print this help']);
  const width = Math.max(...all.map(([f]) => f.length));
  lines.push('', 'options:', ...all.map(([f, h]) => `  ${f.padEnd(width)}  ${h}`));
  return lines.join('\n');
}

function listHelp(commands: CommandSpec[], title: string): string {
  const width = Math.max(...commands.map((c) => c.path.join(' ').length + (c.args ? c.args.length + 1 : 0)));
  const rows = commands.map((c) => `  tongate ${[c.path.join(' '), c.args].filter(Boolean).join(' ').padEnd(width)}  ${c.summary}`);
  return [title, '', ...rows, '', "'tongate <command> --help' lists a command's options."].join('\n');
}

const USAGE = listHelp(COMMANDS, 'tongate — a TON Center API v2/v3 gateway\n\nusage: tongate <command> [options]');

/** The command `argv` names (longest match first), its group when it names only a group, and the rest of argv. */
function findCommand(argv: string[]): { cmd?: CommandSpec; group?: string; rest: string[] } {
  const [first, second] = argv;
  const cmd =
    COMMANDS.find((c) => c.path.length === 2 && c.path[0] === first && c.path[1] === second) ??
    COMMANDS.find((c) => c.path.length === 1 && c.path[0] === first);
  if (cmd) return { cmd, rest: argv.slice(cmd.path.length) };
  if (first !== undefined && GROUPS[first]) return { group: first, rest: argv.slice(1) };
  return { rest: argv.slice(1) };
}

/** Reads a command's arguments; anything it does not take is a UsageError naming it, never parseArgs' TypeError. */
function parseCommandArgs(cmd: CommandSpec, args: string[]): { values: Invocation['values']; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(Object.entries(cmd.options).map(([name, o]) => [name, { type: o.type, multiple: o.multiple ?? false }])),
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const name = /'([^']+)'/.exec((err as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option '${name ?? '?'}'`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(
        `option '${name?.split(' ')[0] ?? '?'}' ${/argument missing/.test((err as Error).message) ? 'needs a value' : 'takes no value'}`,
      );
    throw new UsageError((err as Error).message.split('\n')[0]!);
  }
  const max = cmd.positionals ?? 0;
  if (parsed.positionals.length > max) throw new UsageError(`unexpected argument '${parsed.positionals[max]}'`);
  return { values: parsed.values as Invocation['values'], positionals: parsed.positionals };
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

export async function main(argv: string[], out: (s: string) => void = console.log): Promise<number> {
  const { cmd, group, rest } = findCommand(argv);
  const groupCommands = group ? COMMANDS.filter((c) => c.path[0] === group) : [];
  try {
    if (argv.length === 0 || argv[0] === 'help' || isHelp(argv[0]!)) {
      out(USAGE);
      return argv.length === 0 ? 2 : 0;
    }
    if (group) {
      if (rest.length === 0 || rest.some(isHelp)) {
        out(listHelp(groupCommands, `tongate ${group}: ${GROUPS[group]}`));
        return rest.length === 0 ? 2 : 0;
      }
      throw new UsageError(`unknown ${group} command '${rest[0]}'`);
    }
    if (!cmd) throw new UsageError(`unknown command '${argv[0]}'`);
    if (rest.some(isHelp)) {
      out(commandHelp(cmd));
      return 0;
    }
    const { values, positionals } = parseCommandArgs(cmd, rest);
    await cmd.run({ values, positionals, out, config: () => loadConfig() });
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      // One line saying what is wrong and one of usage; --help has the rest.
      const usage = cmd
        ? `usage: ${usageLine(cmd)}  ('tongate ${cmd.path.join(' ')} --help' for details)`
        : group
          ? `usage: tongate ${group} <${groupCommands.map((c) => c.path[1]).join('|')}> …  ('tongate ${group} --help' for details)`
          : "usage: tongate <command> [options]  ('tongate --help' lists the commands)";
      console.error(`tongate: ${err.message}\n${usage}`);
      return 2;
    }
    console.error(`tongate: ${(err as Error).stack ?? err}`);
    return 1;
  }
}

// Run when executed (tsx packages/cli/src/main.ts …), not when imported by tests.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).then((code) => {
    if (code !== 0) process.exit(code);
  });
}
