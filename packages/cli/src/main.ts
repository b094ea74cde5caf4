#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, readAdminFile, settingsTableMarkdown, type Config, type Network } from '@tongate/server';
import { openKeyAdmin, RemoteKeyAdmin } from './key-admin.js';
import { actionsCommand, ActionsUsageError } from './actions-command.js';
import { keysTable } from './format.js';
import { startIndexProcess } from './index-command.js';
import { startGateway } from './start.js';
import { startDevnetLiteserver } from './devnet-liteserver.js';
import { devnetElectionTiming } from '@tongate/devnet';

const USAGE = `tongate — TON Center API v2/v3 gateway

  tongate start [--seed]                         run the server (config: environment / TONGATE_CONFIG)
  tongate keys create --network <mainnet|testnet> [--rps N] [--burst N] [--label TEXT] [--expires ISO-DATE]
  tongate keys list [--json]
  tongate keys revoke <id>
  tongate keys rotate <id> [--grace SECONDS]     old key stays valid for the grace period (default 86400)
  tongate devnet seed [--network mainnet|testnet] seeds the running server's devnet
  tongate devnet complain [--network mainnet|testnet] [--validator PUBKEY-HEX]
                                                 files a complaint with the running devnet's elector against a
                                                 validator of the validating set; the devnet validators vote for it
  tongate index --network <mainnet|testnet>      run a network's indexer as its own process (one per network)
  tongate devnet liteserver [--network mainnet|testnet] [--port N]... [--config-out FILE]
                                                 runs a devnet served as an ADNL liteserver (one per --port, all of
                                                 the same chain); prints its global config
  tongate config                                 prints every setting with its default
  tongate actions classify <fixture.json>        classifies a golden trace fixture, prints v3 actions as JSON`;

class UsageError extends Error {}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`--${name} must be a positive integer, got '${raw}'`);
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

async function keysCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      network: { type: 'string' },
      rps: { type: 'string' },
      burst: { type: 'string' },
      label: { type: 'string' },
      expires: { type: 'string' },
      grace: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!['create', 'list', 'revoke', 'rotate'].includes(sub ?? '')) throw new UsageError(`unknown keys command '${sub ?? ''}'`);
  // Validate before touching the database.
  let createInput: Parameters<Awaited<ReturnType<typeof openKeyAdmin>>['create']>[0] | undefined;
  if (sub === 'create') {
    const rps = positiveInt('rps', values.rps, config.defaultPlanRps);
    const burst = positiveInt('burst', values.burst, values.rps ? rps : config.defaultPlanBurst);
    let expiresAt: Date | null = null;
    if (values.expires) {
      expiresAt = new Date(values.expires);
      if (Number.isNaN(expiresAt.getTime())) throw new UsageError(`--expires must be a date, got '${values.expires}'`);
    }
    createInput = { network: network(values.network), rps, burst, label: values.label ?? '', expiresAt };
  }
  const id = sub === 'revoke' || sub === 'rotate' ? idArg(positionals[0]) : 0;
  const grace = values.grace !== undefined ? Number(values.grace) : 86_400;
  if (!Number.isFinite(grace) || grace < 0) throw new UsageError(`--grace must be a number of seconds >= 0, got '${values.grace}'`);

  const admin = await openKeyAdmin(config);
  try {
    if (sub === 'create') {
      const { key, record } = await admin.create(createInput!);
      out(`Created key #${record.id} for ${record.network} (${record.rps} rps, burst ${record.burst}${record.label ? `, label '${record.label}'` : ''}).`);
      out(`Key (shown once, store it now): ${key}`);
    } else if (sub === 'list') {
      const records = await admin.list();
      out(values.json ? JSON.stringify(records, null, 2) : records.length ? keysTable(records) : 'no keys');
    } else if (sub === 'revoke') {
      const record = await admin.revoke(id);
      if (!record) throw new UsageError(`no key with id ${id}`);
      out(`Revoked key #${id} (${record.key_prefix}…); running servers reject it within a second.`);
    } else {
      const rotated = await admin.rotate(id, grace);
      if (!rotated) throw new UsageError(`no key with id ${id}`);
      out(`Rotated key #${id} → new key #${rotated.record.id}.`);
      out(`New key (shown once, store it now): ${rotated.key}`);
      out(`The old key stays valid until ${rotated.old.expires_at?.toISOString()} (grace ${grace} s).`);
    }
  } finally {
    await admin.close();
  }
}

async function devnetCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'liteserver') return devnetLiteserverCommand(config, rest, out);
  if (sub === 'complain') return devnetComplainCommand(config, rest, out);
  if (sub !== 'seed') throw new UsageError(`unknown devnet command '${sub ?? ''}'`);
  const { values } = parseArgs({ args: rest, options: { network: { type: 'string' } } });
  const networks: Network[] = values.network ? [network(values.network)] : ['mainnet', 'testnet'];
  const adminFile = readAdminFile(config.dataDir);
  const remote = adminFile ? new RemoteKeyAdmin(adminFile) : undefined;
  if (!remote || !(await remote.ping())) {
    throw new UsageError(`no running server found for data dir ${config.dataDir}; start it with 'tongate start --seed' instead`);
  }
  for (const n of networks) {
    const { status, data } = await remote.call<{ lastBlock?: { seqno: number }; error?: string }>('POST', `/admin/devnet/${n}/seed`);
    if (status !== 200) throw new Error(data.error ?? `seeding ${n} failed`);
    out(`Seeded ${n} devnet (last block ${data.lastBlock?.seqno ?? '?'}).`);
  }
}

async function devnetComplainCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { network: { type: 'string' }, validator: { type: 'string' } } });
  const net = network(values.network ?? 'mainnet');
  if (values.validator !== undefined && !/^[0-9a-fA-F]{64}$/.test(values.validator)) throw new UsageError(`--validator must be a public key as 64 hex digits, got '${values.validator}'`);
  const adminFile = readAdminFile(config.dataDir);
  const remote = adminFile ? new RemoteKeyAdmin(adminFile) : undefined;
  if (!remote || !(await remote.ping())) throw new UsageError(`no running server found for data dir ${config.dataDir}; start it with 'tongate start --seed' first`);
  const { status, data } = await remote.call<{ electionId?: number; complaintHash?: string; validatorPubkey?: string; error?: string }>('POST', `/admin/devnet/${net}/complaint`, values.validator ? { validatorPubkey: values.validator } : {});
  if (status !== 200) throw new Error(data.error ?? `filing a complaint on ${net} failed`);
  out(`Filed complaint ${data.complaintHash} against ${data.validatorPubkey} in election ${data.electionId} on the ${net} devnet; the devnet validators are voting for it.`);
  out(`See it with: curl 'http://127.0.0.1:<port>/api/v3/validators/complaints?election_id=${data.electionId}'`);
}

async function devnetLiteserverCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { network: { type: 'string' }, port: { type: 'string', multiple: true }, host: { type: 'string' }, 'config-out': { type: 'string' } } });
  const net = network(values.network ?? 'mainnet');
  const ports = (values.port ?? ['0']).map((p) => (p === '0' ? 0 : positiveInt('port', p, 0)));
  const running = await startDevnetLiteserver({
    network: net,
    dataDir: path.resolve(config.dataDir, 'devnet-liteserver'),
    blockIntervalMs: config.devnetBlockIntervalMs,
          electionTiming: devnetElectionTiming(config.devnetElectionCycleS),
    ports,
    host: values.host ?? '127.0.0.1',
    configFile: values['config-out'],
  });
  out(`devnet liteserver (${net}) on ${running.servers.map((s) => `${values.host ?? '127.0.0.1'}:${s.port}`).join(', ')}, faucet ${running.devnet.faucet.address.toString({ testOnly: net === 'testnet' })}`);
  if (values['config-out']) out(`global config written to ${values['config-out']}; use it with TONGATE_${net.toUpperCase()}_BACKEND=liteserver TONGATE_${net.toUpperCase()}_LITESERVER_CONFIG=${values['config-out']}`);
  out(JSON.stringify(running.config, null, 2));
  const stop = () => void running.close().then(() => process.exit(0), () => process.exit(1));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function startCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { seed: { type: 'boolean' } } });
  const gateway = await startGateway(config, { seed: values.seed });
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
  out(`  curl -X POST 'http://${config.mainnet.hosts[0]}:${mainnetPort}/api/v2/jsonRPC' -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"getMasterchainInfo","params":{}}'`);
  out(`  npm run tongate -- keys create --network mainnet --rps 10 --label me`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    out(`${signal}: draining in-flight requests…`);
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function indexCommand(config: Config, args: string[], out: (s: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { network: { type: 'string' } } });
  const running = await startIndexProcess(config, network(values.network));
  out(`tongate indexer for ${values.network} is running`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

export async function main(argv: string[], out: (s: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (!command || command === 'help' || command === '--help') {
      out(USAGE);
      return command ? 0 : 2;
    }
    if (command === 'config') {
      out(settingsTableMarkdown());
      return 0;
    }
    if (command === 'actions') {
      actionsCommand(rest, out);
      return 0;
    }
    const config = loadConfig();
    if (command === 'start') await startCommand(config, rest, out);
    else if (command === 'keys') await keysCommand(config, rest, out);
    else if (command === 'devnet') await devnetCommand(config, rest, out);
    else if (command === 'index') await indexCommand(config, rest, out);
    else throw new UsageError(`unknown command '${command}'`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof ActionsUsageError) {
      console.error(`tongate: ${err.message}\n\n${USAGE}`);
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
