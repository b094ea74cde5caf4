import { readFileSync } from 'node:fs';
import { Address } from '@ton/core';
import { outboundPolicy } from '@tongate/outbound';
import type { Network } from '@tongate/chain';

export type { Network };
export const NETWORKS: readonly Network[] = ['mainnet', 'testnet'];

export interface NetworkSettings {
  /** Host names (without port) that select this network. */
  hosts: string[];
  /** A port on which the network is also served to loopback hosts (localhost, 127.0.0.1, ::1); 0 = none. */
  port: number;
  /** Chain backend: `devnet` (local sandbox chain) or `liteserver` (needs `liteserverConfig`). */
  backend: 'devnet' | 'liteserver';
  /** Path to a TON global config JSON for the liteserver backend. */
  liteserverConfig: string;
  /** Masterchain seqno the indexer starts from on an empty database; null = the chain's first block. */
  indexFrom: number | null;
  /** The network's `.ton` DNS collection (raw or friendly address) when the operator names it; '' = read it from the
   * chain (config param 4 → root resolver). Only its items count as `.ton` domains. */
  dnsCollection: string;
}

export interface Config {
  listenHost: string;
  mainnet: NetworkSettings;
  testnet: NetworkSettings;
  databaseUrl: string;
  /** PostgreSQL schema of the keys (chain tables: `<schema>_mainnet`, `<schema>_testnet`); empty = public, mainnet, testnet. */
  databaseSchema: string;
  redisUrl: string;
  dataDir: string;
  /** Trust X-Forwarded-For: `false`, `true`, a hop count, or a comma list of proxy addresses (express `trust proxy`). */
  trustProxy: boolean | number | string;
  keylessRps: number;
  keylessBurst: number;
  defaultPlanRps: number;
  defaultPlanBurst: number;
  /** Key revocations reach every process within this interval. */
  keysPollMs: number;
  devnetBlockIntervalMs: number;
  /** Basechain shards of each devnet (a power of two up to 16). */
  devnetShards: number;
  /** How each devnet's validators sign masterchain blocks: simplex sets (Catchain 2.0) or ordinary (catchain) ones. */
  devnetConsensus: 'simplex' | 'catchain';
  /** How long a devnet validator set validates (s); the devnet's election timing scales with it. */
  devnetElectionCycleS: number;
  logLevel: string;
  /** auto: readable lines on a terminal, JSON otherwise; json or pretty: always that. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Validate handler replies against the spec (on in tests; a wrong body becomes a 500). */
  validateResponses: boolean;
  /** Release counter `c` in the v2 version header `2.2.c`. */
  v2Release: number;
  /** Store lookups of uncached API keys per second per client address (random keys cannot flood the store). */
  keyLookupRps: number;
  /** Most calls in one JSON-RPC batch. */
  jsonRpcBatchMax: number;
  /** A JSON-RPC batch reply stops growing here: later calls answer 413 entries. */
  jsonRpcBatchReplyBytes: number;
  /** A client must send its request headers within this long (Node checks every connectionsCheckIntervalMs). */
  headersTimeoutMs: number;
  /** A client must send its whole request within this long. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** How often open connections are checked against the header and request timeouts. */
  connectionsCheckIntervalMs: number;
  /** Open connections per client address; 0 = no cap (set 0 behind a proxy, where every connection is the proxy's). */
  maxConnectionsPerClient: number;
  /** PostgreSQL statement timeout of the v3 operations' reads of the index (504 past it). */
  dbReadTimeoutMs: number;
  /** `embedded`: each API process indexes its networks itself; `external`: a separate `tongate index` process does. */
  indexer: 'embedded' | 'external';
  /** Seconds a pending (emulated) trace is served without landing, and after it is finalized. */
  pendingTtlSeconds: number;
  /** Pending traces held per network at most (the oldest go first). */
  pendingMaxEntries: number;
  /** Streaming API: concurrent streams per API key (-1: no limit). */
  streamKeyConnections: number;
  /** Streaming API: addresses one stream of a keyed client may subscribe to (-1: no limit). */
  streamKeyAddresses: number;
  /** Streaming API without a key: streams per client address and addresses per stream. */
  streamKeylessConnections: number;
  streamKeylessAddresses: number;
  /** Streaming API: streams a key (or keyless address) may open per minute. */
  streamConnectsPerMinute: number;
  /** Streaming API: finalized blocks kept per network for subscribers that reconnect. */
  streamRetainBlocks: number;
  /** Streaming API: keep-alive interval (SSE comment, WebSocket ping). */
  streamKeepAliveMs: number;
  /** Streaming API: unsent bytes past which a subscriber is dropped. */
  streamMaxBufferBytes: number;
  /** Streaming API: Redis pub/sub channel prefix (one deployment's processes share it; `:<network>` is appended). */
  streamChannel: string;
  /** Key prefix of the shared rate limits (`<prefix>:rl`) and pending traces (`<prefix>:pending`) in Redis. */
  redisPrefix: string;
  /** Fetch off-chain token metadata (TEP-64 content URIs) in the background; off by default (needs internet). */
  metadataFetch: boolean;
  /** URI schemes the metadata fetcher follows; others are recorded as not fetchable. */
  metadataSchemes: string[];
  /** HTTP gateway an `ipfs://` URI is read through (when `ipfs` is an allowed scheme). */
  metadataIpfsGateway: string;
  metadataTimeoutMs: number;
  metadataMaxBytes: number;
  /** A fetched document is fetched again after this long; a failed fetch is retried after a tenth of it. */
  metadataTtlSeconds: number;
  /**
   * Host names and address blocks that outbound fetches (token metadata, the IPFS gateway) may reach although they
   * are not public unicast; empty = public destinations only.
   */
  outboundAllow: string[];
  /** Origins whose pages may read the replies in a browser (CORS): `*` for any, or exact origins (`https://app.example`). */
  corsOrigins: string[];
}

interface SettingDoc {
  key: string;
  env: string;
  default: string;
  description: string;
}

/** Every setting, its environment variable, JSON-file key and default — rendered into the README. */
export const SETTINGS: readonly SettingDoc[] = [
  { key: 'listenHost', env: 'TONGATE_LISTEN_HOST', default: '127.0.0.1', description: 'Interface the API ports bind to.' },
  {
    key: 'mainnet.hosts',
    env: 'TONGATE_MAINNET_HOST',
    default: 'mainnet.localhost',
    description: 'Comma list of host names that select mainnet.',
  },
  {
    key: 'testnet.hosts',
    env: 'TONGATE_TESTNET_HOST',
    default: 'testnet.localhost',
    description: 'Comma list of host names that select testnet.',
  },
  {
    key: 'mainnet.port',
    env: 'TONGATE_MAINNET_PORT',
    default: '8080',
    description: 'Port served for all host names above; plain loopback hosts (localhost, 127.0.0.1) on it get mainnet.',
  },
  {
    key: 'testnet.port',
    env: 'TONGATE_TESTNET_PORT',
    default: '8081',
    description: 'Second port; plain loopback hosts on it get testnet. 0 disables it.',
  },
  {
    key: 'mainnet.backend',
    env: 'TONGATE_MAINNET_BACKEND',
    default: 'devnet',
    description: 'Chain backend of mainnet: devnet | liteserver.',
  },
  {
    key: 'testnet.backend',
    env: 'TONGATE_TESTNET_BACKEND',
    default: 'devnet',
    description: 'Chain backend of testnet: devnet | liteserver.',
  },
  {
    key: 'mainnet.liteserverConfig',
    env: 'TONGATE_MAINNET_LITESERVER_CONFIG',
    default: '(empty)',
    description: 'Global config path for the mainnet liteserver backend.',
  },
  {
    key: 'testnet.liteserverConfig',
    env: 'TONGATE_TESTNET_LITESERVER_CONFIG',
    default: '(empty)',
    description: 'Global config path for the testnet liteserver backend.',
  },
  {
    key: 'mainnet.indexFrom',
    env: 'TONGATE_MAINNET_INDEX_FROM',
    default: '(empty: first block)',
    description: 'Masterchain seqno the mainnet indexer starts from on an empty database.',
  },
  {
    key: 'testnet.indexFrom',
    env: 'TONGATE_TESTNET_INDEX_FROM',
    default: '(empty: first block)',
    description: 'Masterchain seqno the testnet indexer starts from on an empty database.',
  },
  {
    key: 'mainnet.dnsCollection',
    env: 'TONGATE_MAINNET_DNS_COLLECTION',
    default: '(empty: from the chain)',
    description:
      "The `.ton` DNS collection whose items the mainnet indexer counts as domains; empty = the one config param 4's root resolver names.",
  },
  {
    key: 'testnet.dnsCollection',
    env: 'TONGATE_TESTNET_DNS_COLLECTION',
    default: '(empty: from the chain)',
    description:
      "The `.ton` DNS collection whose items the testnet indexer counts as domains; empty = the one config param 4's root resolver names.",
  },
  {
    key: 'indexer',
    env: 'TONGATE_INDEXER',
    default: 'embedded',
    description: 'embedded: the server indexes its networks itself; external: `tongate index --network N` processes do (production).',
  },
  { key: 'databaseUrl', env: 'DATABASE_URL', default: '(empty: embedded PGlite)', description: 'PostgreSQL connection string.' },
  {
    key: 'databaseSchema',
    env: 'TONGATE_DATABASE_SCHEMA',
    default: '(empty: public; chain tables in mainnet, testnet)',
    description:
      'PostgreSQL schema of the keys tables; the chain tables go in `<schema>_mainnet` and `<schema>_testnet`. Lets several deployments share one database.',
  },
  {
    key: 'redisUrl',
    env: 'REDIS_URL',
    default: '(empty: in-memory limiter)',
    description: 'Redis for rate limits shared between processes.',
  },
  { key: 'dataDir', env: 'TONGATE_DATA_DIR', default: './data', description: 'Embedded database, devnet state, admin token.' },
  {
    key: 'trustProxy',
    env: 'TONGATE_TRUST_PROXY',
    default: 'false',
    description: 'Trust X-Forwarded-For: false | true | hop count | proxy addresses.',
  },
  {
    key: 'keylessRps',
    env: 'TONGATE_KEYLESS_RPS',
    default: '1',
    description: 'Requests per second without a key, per client address and network.',
  },
  { key: 'keylessBurst', env: 'TONGATE_KEYLESS_BURST', default: '1', description: 'Burst without a key (window = burst / rps seconds).' },
  {
    key: 'defaultPlanRps',
    env: 'TONGATE_DEFAULT_PLAN_RPS',
    default: '10',
    description: 'Requests per second of a new key when none is given.',
  },
  { key: 'defaultPlanBurst', env: 'TONGATE_DEFAULT_PLAN_BURST', default: '(= rps)', description: 'Burst of a new key when none is given.' },
  {
    key: 'keysPollMs',
    env: 'TONGATE_KEYS_POLL_MS',
    default: '250',
    description: 'How often each process checks for key changes (revocation delay).',
  },
  {
    key: 'devnetBlockIntervalMs',
    env: 'TONGATE_DEVNET_BLOCK_INTERVAL_MS',
    default: '400',
    description:
      "Devnet block production interval in ms (a masterchain block and one block per basechain shard per round; 400 is mainnet's cadence).",
  },
  {
    key: 'devnetShards',
    env: 'TONGATE_DEVNET_SHARDS',
    default: '2',
    description:
      'Basechain shards of each devnet (1, 2, 4, 8 or 16). A devnet recorded with another count splits or merges towards it; a message to another shard lands a block later.',
  },
  {
    key: 'devnetConsensus',
    env: 'TONGATE_DEVNET_CONSENSUS',
    default: 'simplex',
    description:
      'How each devnet signs its masterchain blocks: `simplex` (Catchain 2.0 finalize votes, as mainnet and testnet sign today) or `catchain` (ordinary signature sets, as before the switch). What getBlockProof and getMasterchainBlockSignatures carry.',
  },
  {
    key: 'devnetElectionCycleS',
    env: 'TONGATE_DEVNET_ELECTION_CYCLE_S',
    default: '120',
    description:
      'Devnet validation cycle in seconds (config 15 validators_elected_for); elections open half a cycle before a set starts and close a sixth before.',
  },
  {
    key: 'logLevel',
    env: 'TONGATE_LOG_LEVEL',
    default: 'info',
    description: 'pino log level. Lines go to stdout, written in batches at most 250 ms late.',
  },
  {
    key: 'logFormat',
    env: 'TONGATE_LOG_FORMAT',
    default: 'auto',
    description:
      'auto: readable lines when stdout is a terminal, JSON lines otherwise; json: always JSON (for log collectors); pretty: always readable.',
  },
  {
    key: 'validateResponses',
    env: 'TONGATE_VALIDATE_RESPONSES',
    default: 'false',
    description: 'Validate replies against the spec (tests turn it on).',
  },
  { key: 'v2Release', env: 'TONGATE_V2_RELEASE', default: '0', description: 'Release counter c of the v2 version header 2.2.c.' },
  {
    key: 'keyLookupRps',
    env: 'TONGATE_KEY_LOOKUP_RPS',
    default: '10',
    description:
      'Store lookups of API keys not in the cache, per second per client address (429 past it); unknown keys also count against the keyless limit.',
  },
  {
    key: 'jsonRpcBatchMax',
    env: 'TONGATE_JSONRPC_BATCH_MAX',
    default: '100',
    description:
      'Most calls in one JSON-RPC batch (422 past it). Every call counts against the rate limit; calls past the allowance answer 429 entries.',
  },
  {
    key: 'jsonRpcBatchReplyBytes',
    env: 'TONGATE_JSONRPC_BATCH_REPLY_BYTES',
    default: '16777216',
    description: 'A JSON-RPC batch reply stops growing at this size; the calls after it answer 413 entries.',
  },
  {
    key: 'headersTimeoutMs',
    env: 'TONGATE_HEADERS_TIMEOUT_MS',
    default: '10000',
    description: 'A connection must send its request headers within this time, or it is closed (408).',
  },
  {
    key: 'requestTimeoutMs',
    env: 'TONGATE_REQUEST_TIMEOUT_MS',
    default: '30000',
    description: 'A connection must send its whole request within this time, or it is closed (408).',
  },
  {
    key: 'keepAliveTimeoutMs',
    env: 'TONGATE_KEEPALIVE_TIMEOUT_MS',
    default: '5000',
    description: 'Idle keep-alive connections are closed after this time.',
  },
  {
    key: 'connectionsCheckIntervalMs',
    env: 'TONGATE_CONNECTIONS_CHECK_INTERVAL_MS',
    default: '5000',
    description: 'How often open connections are checked against the two timeouts above (a silent socket is closed within their sum).',
  },
  {
    key: 'dbReadTimeoutMs',
    env: 'TONGATE_DB_READ_TIMEOUT_MS',
    default: '5000',
    description: 'PostgreSQL statement timeout of the v3 reads of the index; a query past it answers 504 (PGlite has none).',
  },
  {
    key: 'pendingTtlSeconds',
    env: 'TONGATE_PENDING_TTL_S',
    default: '60',
    description:
      "Seconds a sent message's emulated trace stays in the pending operations without landing (then it expires), and after it is finalized. Held in REDIS_URL when set, so every process sees it; in process otherwise.",
  },
  {
    key: 'pendingMaxEntries',
    env: 'TONGATE_PENDING_MAX_ENTRIES',
    default: '10000',
    description: 'Pending traces held per network at most; past it the oldest are dropped.',
  },
  {
    key: 'streamKeyConnections',
    env: 'TONGATE_STREAM_KEY_CONNECTIONS',
    default: '2',
    description:
      'Streaming API: concurrent streams (SSE and WebSocket together) per API key whose own plan does not say (`keys create --stream-connections`); past it 429 `connection limit reached`. -1 = no limit.',
  },
  {
    key: 'streamKeyAddresses',
    env: 'TONGATE_STREAM_KEY_ADDRESSES',
    default: '1000',
    description:
      "Streaming API: addresses one stream of a keyed client subscribes to at most, unless the key's plan says (`--stream-addresses`); 400 `too many addresses`. -1 = no limit.",
  },
  {
    key: 'streamKeylessConnections',
    env: 'TONGATE_STREAM_KEYLESS_CONNECTIONS',
    default: '1',
    description: 'Streaming API without a key: concurrent streams per client address. 0 = keyless streaming off.',
  },
  {
    key: 'streamKeylessAddresses',
    env: 'TONGATE_STREAM_KEYLESS_ADDRESSES',
    default: '10',
    description: 'Streaming API without a key: addresses per stream.',
  },
  {
    key: 'streamConnectsPerMinute',
    env: 'TONGATE_STREAM_CONNECTS_PER_MIN',
    default: '30',
    description: 'Streaming API: streams a key (or keyless client address) may open per minute; past it 429 `reconnect rate exceeded`.',
  },
  {
    key: 'streamRetainBlocks',
    env: 'TONGATE_STREAM_RETAIN_BLOCKS',
    default: '600',
    description:
      'Streaming API: finalized blocks each API process keeps per network for reconnecting subscribers (Last-Event-ID / after_mc_seqno).',
  },
  {
    key: 'streamKeepAliveMs',
    env: 'TONGATE_STREAM_KEEPALIVE_MS',
    default: '15000',
    description:
      'Streaming API: keep-alive interval (SSE `: keepalive` comment, WebSocket ping); a peer that reads nothing over two of them is closed.',
  },
  {
    key: 'streamMaxBufferBytes',
    env: 'TONGATE_STREAM_MAX_BUFFER_BYTES',
    default: '4194304',
    description: 'Streaming API: a subscriber with more unsent bytes than this is dropped with a close reason.',
  },
  {
    key: 'streamChannel',
    env: 'TONGATE_STREAM_CHANNEL',
    default: 'tongate:stream',
    description:
      'Streaming API: Redis pub/sub channel prefix the indexer and every API process of one deployment share (`:mainnet` / `:testnet` appended; the per-key stream counts live under `<prefix>:limits`); give deployments sharing one Redis different ones.',
  },
  {
    key: 'redisPrefix',
    env: 'TONGATE_REDIS_PREFIX',
    default: 'tongate',
    description:
      "Key prefix in Redis of the rate-limit buckets (`<prefix>:rl`) and pending traces (`<prefix>:pending`) every API process of one deployment shares; deployments sharing one Redis give each its own (and a `TONGATE_STREAM_CHANNEL` of its own), or they count against each other's limits and see each other's pending traces.",
  },
  {
    key: 'metadataFetch',
    env: 'TONGATE_METADATA_FETCH',
    default: 'false',
    description:
      "Fetch off-chain token metadata (jetton/NFT content URIs) in a background worker beside the indexer; until a document is fetched, `metadata` says `is_indexed: false`. Off by default: it needs internet. The URLs are anyone's to write on chain, so every fetch is guarded: see `TONGATE_OUTBOUND_ALLOW`.",
  },
  {
    key: 'metadataSchemes',
    env: 'TONGATE_METADATA_SCHEMES',
    default: 'https,ipfs',
    description: 'Comma list of URI schemes the metadata fetcher follows (http, https, ipfs); other URIs are recorded as not fetchable.',
  },
  {
    key: 'metadataIpfsGateway',
    env: 'TONGATE_METADATA_IPFS_GATEWAY',
    default: 'https://ipfs.io/ipfs/',
    description: 'HTTP gateway that `ipfs://` content URIs are fetched through.',
  },
  {
    key: 'metadataTimeoutMs',
    env: 'TONGATE_METADATA_TIMEOUT_MS',
    default: '5000',
    description: 'Time limit of one metadata fetch (connect to last byte).',
  },
  {
    key: 'metadataMaxBytes',
    env: 'TONGATE_METADATA_MAX_BYTES',
    default: '262144',
    description: 'Largest metadata document read; a longer one is dropped as invalid.',
  },
  {
    key: 'metadataTtlSeconds',
    env: 'TONGATE_METADATA_TTL_SECONDS',
    default: '86400',
    description: 'A fetched metadata document is refreshed after this long; a failed or refused fetch is retried after a tenth of it.',
  },
  {
    key: 'outboundAllow',
    env: 'TONGATE_OUTBOUND_ALLOW',
    default: '(empty: public addresses only)',
    description:
      'Comma list of host names, IP addresses and CIDR blocks that outbound fetches (token metadata, the IPFS gateway) may reach although they are private, loopback, link-local or otherwise not public unicast: a private metadata mirror, an own IPFS gateway (name its host here). Nothing else opens the guard.',
  },
  {
    key: 'corsOrigins',
    env: 'TONGATE_CORS_ORIGINS',
    default: '*',
    description:
      'Origins whose web pages may call the API from a browser (CORS): `*` for any, or a comma list of exact origins such as `https://app.example,http://localhost:3000`. Preflights need no key and count against no limit.',
  },
  {
    key: 'maxConnectionsPerClient',
    env: 'TONGATE_MAX_CONNECTIONS_PER_CLIENT',
    default: '256 (0 when trustProxy is set)',
    description: 'Open connections per client address; further ones are closed at once. 0 = no cap.',
  },
];

export function settingsTableMarkdown(): string {
  const rows = SETTINGS.map((s) => `| \`${s.env}\` | \`${s.key}\` | ${s.default} | ${s.description} |`);
  return ['| Environment | JSON key | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function defaultConfig(): Config {
  return {
    listenHost: '127.0.0.1',
    mainnet: { hosts: ['mainnet.localhost'], port: 8080, backend: 'devnet', liteserverConfig: '', indexFrom: null, dnsCollection: '' },
    testnet: { hosts: ['testnet.localhost'], port: 8081, backend: 'devnet', liteserverConfig: '', indexFrom: null, dnsCollection: '' },
    databaseUrl: '',
    databaseSchema: '',
    redisUrl: '',
    dataDir: './data',
    trustProxy: false,
    keylessRps: 1,
    keylessBurst: 1,
    defaultPlanRps: 10,
    defaultPlanBurst: 10,
    keysPollMs: 250,
    devnetBlockIntervalMs: 400,
    devnetShards: 2,
    devnetConsensus: 'simplex',
    devnetElectionCycleS: 120,
    logLevel: 'info',
    logFormat: 'auto',
    validateResponses: false,
    v2Release: 0,
    keyLookupRps: 10,
    jsonRpcBatchMax: 100,
    jsonRpcBatchReplyBytes: 16 * 1024 * 1024,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    connectionsCheckIntervalMs: 5_000,
    maxConnectionsPerClient: 256,
    dbReadTimeoutMs: 5_000,
    indexer: 'embedded',
    pendingTtlSeconds: 60,
    pendingMaxEntries: 10_000,
    streamKeyConnections: 2,
    streamKeyAddresses: 1_000,
    streamKeylessConnections: 1,
    streamKeylessAddresses: 10,
    streamConnectsPerMinute: 30,
    streamRetainBlocks: 600,
    streamKeepAliveMs: 15_000,
    streamMaxBufferBytes: 4 * 1024 * 1024,
    streamChannel: 'tongate:stream',
    redisPrefix: 'tongate',
    metadataFetch: false,
    metadataSchemes: ['https', 'ipfs'],
    metadataIpfsGateway: 'https://ipfs.io/ipfs/',
    metadataTimeoutMs: 5_000,
    metadataMaxBytes: 256 * 1024,
    metadataTtlSeconds: 86_400,
    outboundAllow: [],
    corsOrigins: ['*'],
  };
}

export class ConfigError extends Error {}

function parseInteger(name: string, raw: string, min: number): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got '${raw}'`);
  const n = Number(raw);
  if (n < min) throw new ConfigError(`${name} must be >= ${min}, got ${n}`);
  return n;
}

/** A limit: a non-negative integer, or -1 for none. */
function parseLimit(name: string, raw: string): number {
  return raw.trim() === '-1' ? -1 : parseInteger(name, raw, 0);
}

function parseBoolean(name: string, raw: string): boolean {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

function parseTrustProxy(raw: string): Config['trustProxy'] {
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function hostList(raw: string): string[] {
  return raw
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

function parseAddressSetting(name: string, raw: string): string {
  const value = raw.trim();
  if (!Address.isFriendly(value) && !Address.isRaw(value)) throw new ConfigError(`${name} must be a TON address, got '${raw}'`);
  return value;
}

function parseSchemaName(raw: string): string {
  if (!/^[a-z_][a-z0-9_]{0,54}$/.test(raw))
    throw new ConfigError(`TONGATE_DATABASE_SCHEMA must be a lower-case SQL identifier (letters, digits, _), got '${raw}'`);
  return raw;
}

function parseBackend(name: string, raw: string): NetworkSettings['backend'] {
  if (raw !== 'devnet' && raw !== 'liteserver') throw new ConfigError(`${name} must be devnet or liteserver, got '${raw}'`);
  return raw;
}

const METADATA_SCHEMES = ['http', 'https', 'ipfs'];

function parseSchemes(raw: string): string[] {
  const schemes = hostList(raw);
  for (const scheme of schemes) {
    if (!METADATA_SCHEMES.includes(scheme))
      throw new ConfigError(`TONGATE_METADATA_SCHEMES: '${scheme}' is not one of ${METADATA_SCHEMES.join(', ')}`);
  }
  return schemes;
}

/** A CORS origin list: `*`, or origins as browsers send them (scheme, host, optional port; no path). */
function parseOrigins(name: string, raw: string | readonly unknown[]): string[] {
  const items = (typeof raw === 'string' ? raw.split(',') : raw.map((v) => (typeof v === 'string' ? v : '')))
    .map((o) => o.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(`${name} must name at least one origin or *`);
  for (const origin of items) {
    if (origin !== '*' && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i.test(origin))
      throw new ConfigError(`${name}: '${origin}' is not * or an origin such as https://app.example`);
  }
  return items.includes('*') ? ['*'] : items.map((o) => o.toLowerCase());
}

/** Merges a JSON object (same shape as Config, partial) onto `base`. */
function applyFile(base: Config, file: Record<string, unknown>): Config {
  const merged = { ...base, mainnet: { ...base.mainnet }, testnet: { ...base.testnet } } as Config;
  for (const [key, value] of Object.entries(file)) {
    if (key === 'mainnet' || key === 'testnet') {
      Object.assign(merged[key], value as object);
    } else if (key in merged) {
      (merged as unknown as Record<string, unknown>)[key] = value;
    } else {
      throw new ConfigError(`unknown setting in config file: ${key}`);
    }
  }
  return merged;
}

/** Defaults, then the JSON file named by TONGATE_CONFIG, then environment variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  let config = defaultConfig();
  if (env.TONGATE_CONFIG) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(env.TONGATE_CONFIG, 'utf8'));
    } catch (e) {
      throw new ConfigError(`cannot read TONGATE_CONFIG ${env.TONGATE_CONFIG}: ${(e as Error).message}`);
    }
    config = applyFile(config, parsed as Record<string, unknown>);
    for (const net of NETWORKS) {
      const dns = config[net].dnsCollection as unknown;
      if (dns !== '' && dns !== undefined) config[net].dnsCollection = parseAddressSetting(`${net}.dnsCollection`, String(dns));
    }
    const origins = config.corsOrigins as unknown;
    config.corsOrigins = parseOrigins('corsOrigins', typeof origins === 'string' || Array.isArray(origins) ? origins : String(origins));
  }
  const e = (name: string) => (env[name] !== undefined && env[name] !== '' ? env[name] : undefined);
  let v: string | undefined;
  if ((v = e('TONGATE_LISTEN_HOST'))) config.listenHost = v;
  for (const net of NETWORKS) {
    const N = net.toUpperCase();
    if ((v = e(`TONGATE_${N}_HOST`))) config[net].hosts = hostList(v);
    if ((v = e(`TONGATE_${N}_PORT`))) config[net].port = parseInteger(`TONGATE_${N}_PORT`, v, 0);
    if ((v = e(`TONGATE_${N}_BACKEND`))) config[net].backend = parseBackend(`TONGATE_${N}_BACKEND`, v);
    if ((v = e(`TONGATE_${N}_LITESERVER_CONFIG`))) config[net].liteserverConfig = v;
    if ((v = e(`TONGATE_${N}_INDEX_FROM`))) config[net].indexFrom = parseInteger(`TONGATE_${N}_INDEX_FROM`, v, 0);
    if ((v = e(`TONGATE_${N}_DNS_COLLECTION`))) config[net].dnsCollection = parseAddressSetting(`TONGATE_${N}_DNS_COLLECTION`, v);
  }
  if ((v = e('DATABASE_URL'))) config.databaseUrl = v;
  if ((v = e('TONGATE_DATABASE_SCHEMA'))) config.databaseSchema = parseSchemaName(v);
  if ((v = e('REDIS_URL'))) config.redisUrl = v;
  if ((v = e('TONGATE_DATA_DIR'))) config.dataDir = v;
  if ((v = e('TONGATE_TRUST_PROXY'))) config.trustProxy = parseTrustProxy(v);
  if ((v = e('TONGATE_KEYLESS_RPS'))) config.keylessRps = parseInteger('TONGATE_KEYLESS_RPS', v, 1);
  if ((v = e('TONGATE_KEYLESS_BURST'))) config.keylessBurst = parseInteger('TONGATE_KEYLESS_BURST', v, 1);
  else if (e('TONGATE_KEYLESS_RPS')) config.keylessBurst = config.keylessRps;
  if ((v = e('TONGATE_DEFAULT_PLAN_RPS'))) config.defaultPlanRps = parseInteger('TONGATE_DEFAULT_PLAN_RPS', v, 1);
  if ((v = e('TONGATE_DEFAULT_PLAN_BURST'))) config.defaultPlanBurst = parseInteger('TONGATE_DEFAULT_PLAN_BURST', v, 1);
  else if (e('TONGATE_DEFAULT_PLAN_RPS')) config.defaultPlanBurst = config.defaultPlanRps;
  if ((v = e('TONGATE_KEYS_POLL_MS'))) config.keysPollMs = parseInteger('TONGATE_KEYS_POLL_MS', v, 10);
  if ((v = e('TONGATE_DEVNET_BLOCK_INTERVAL_MS'))) config.devnetBlockIntervalMs = parseInteger('TONGATE_DEVNET_BLOCK_INTERVAL_MS', v, 1);
  if ((v = e('TONGATE_DEVNET_SHARDS'))) {
    config.devnetShards = parseInteger('TONGATE_DEVNET_SHARDS', v, 1);
    if (![1, 2, 4, 8, 16].includes(config.devnetShards)) throw new ConfigError(`TONGATE_DEVNET_SHARDS must be 1, 2, 4, 8 or 16, got ${v}`);
  }
  if ((v = e('TONGATE_DEVNET_CONSENSUS'))) {
    if (v !== 'simplex' && v !== 'catchain') throw new ConfigError(`TONGATE_DEVNET_CONSENSUS must be simplex or catchain, got ${v}`);
    config.devnetConsensus = v;
  }
  if ((v = e('TONGATE_DEVNET_ELECTION_CYCLE_S'))) config.devnetElectionCycleS = parseInteger('TONGATE_DEVNET_ELECTION_CYCLE_S', v, 12);
  if ((v = e('TONGATE_LOG_LEVEL'))) config.logLevel = v;
  if ((v = e('TONGATE_LOG_FORMAT'))) config.logFormat = v as Config['logFormat'];
  if (!['auto', 'json', 'pretty'].includes(config.logFormat))
    throw new ConfigError(`TONGATE_LOG_FORMAT (logFormat) must be auto, json or pretty, got '${config.logFormat}'`);
  if ((v = e('TONGATE_VALIDATE_RESPONSES'))) config.validateResponses = parseBoolean('TONGATE_VALIDATE_RESPONSES', v);
  if ((v = e('TONGATE_V2_RELEASE'))) config.v2Release = parseInteger('TONGATE_V2_RELEASE', v, 0);
  if ((v = e('TONGATE_KEY_LOOKUP_RPS'))) config.keyLookupRps = parseInteger('TONGATE_KEY_LOOKUP_RPS', v, 1);
  if ((v = e('TONGATE_JSONRPC_BATCH_MAX'))) config.jsonRpcBatchMax = parseInteger('TONGATE_JSONRPC_BATCH_MAX', v, 1);
  if ((v = e('TONGATE_JSONRPC_BATCH_REPLY_BYTES')))
    config.jsonRpcBatchReplyBytes = parseInteger('TONGATE_JSONRPC_BATCH_REPLY_BYTES', v, 1024);
  if ((v = e('TONGATE_HEADERS_TIMEOUT_MS'))) config.headersTimeoutMs = parseInteger('TONGATE_HEADERS_TIMEOUT_MS', v, 100);
  if ((v = e('TONGATE_REQUEST_TIMEOUT_MS'))) config.requestTimeoutMs = parseInteger('TONGATE_REQUEST_TIMEOUT_MS', v, 100);
  if ((v = e('TONGATE_KEEPALIVE_TIMEOUT_MS'))) config.keepAliveTimeoutMs = parseInteger('TONGATE_KEEPALIVE_TIMEOUT_MS', v, 100);
  if ((v = e('TONGATE_CONNECTIONS_CHECK_INTERVAL_MS')))
    config.connectionsCheckIntervalMs = parseInteger('TONGATE_CONNECTIONS_CHECK_INTERVAL_MS', v, 100);
  if ((v = e('TONGATE_DB_READ_TIMEOUT_MS'))) config.dbReadTimeoutMs = parseInteger('TONGATE_DB_READ_TIMEOUT_MS', v, 10);
  if ((v = e('TONGATE_MAX_CONNECTIONS_PER_CLIENT')))
    config.maxConnectionsPerClient = parseInteger('TONGATE_MAX_CONNECTIONS_PER_CLIENT', v, 0);
  else if (config.trustProxy !== false && config.trustProxy !== 0 && config.trustProxy !== '' && !('maxConnectionsPerClient' in overrides))
    config.maxConnectionsPerClient = 0;
  if ((v = e('TONGATE_PENDING_MAX_ENTRIES'))) config.pendingMaxEntries = parseInteger('TONGATE_PENDING_MAX_ENTRIES', v, 1);
  if ((v = e('TONGATE_PENDING_TTL_S'))) config.pendingTtlSeconds = parseInteger('TONGATE_PENDING_TTL_S', v, 1);
  if ((v = e('TONGATE_INDEXER'))) {
    if (v !== 'embedded' && v !== 'external') throw new ConfigError(`TONGATE_INDEXER must be embedded or external, got '${v}'`);
    config.indexer = v;
  }
  if ((v = e('TONGATE_STREAM_KEY_CONNECTIONS'))) config.streamKeyConnections = parseLimit('TONGATE_STREAM_KEY_CONNECTIONS', v);
  if ((v = e('TONGATE_STREAM_KEY_ADDRESSES'))) config.streamKeyAddresses = parseLimit('TONGATE_STREAM_KEY_ADDRESSES', v);
  if ((v = e('TONGATE_STREAM_KEYLESS_CONNECTIONS'))) config.streamKeylessConnections = parseLimit('TONGATE_STREAM_KEYLESS_CONNECTIONS', v);
  if ((v = e('TONGATE_STREAM_KEYLESS_ADDRESSES'))) config.streamKeylessAddresses = parseLimit('TONGATE_STREAM_KEYLESS_ADDRESSES', v);
  if ((v = e('TONGATE_STREAM_CONNECTS_PER_MIN'))) config.streamConnectsPerMinute = parseLimit('TONGATE_STREAM_CONNECTS_PER_MIN', v);
  if ((v = e('TONGATE_STREAM_RETAIN_BLOCKS'))) config.streamRetainBlocks = parseInteger('TONGATE_STREAM_RETAIN_BLOCKS', v, 1);
  if ((v = e('TONGATE_STREAM_KEEPALIVE_MS'))) config.streamKeepAliveMs = parseInteger('TONGATE_STREAM_KEEPALIVE_MS', v, 100);
  if ((v = e('TONGATE_STREAM_MAX_BUFFER_BYTES'))) config.streamMaxBufferBytes = parseInteger('TONGATE_STREAM_MAX_BUFFER_BYTES', v, 1024);
  if ((v = e('TONGATE_STREAM_CHANNEL'))) config.streamChannel = v;
  if ((v = e('TONGATE_REDIS_PREFIX'))) config.redisPrefix = v;
  if ((v = e('TONGATE_METADATA_FETCH'))) config.metadataFetch = parseBoolean('TONGATE_METADATA_FETCH', v);
  if ((v = e('TONGATE_METADATA_SCHEMES'))) config.metadataSchemes = parseSchemes(v);
  if ((v = e('TONGATE_METADATA_IPFS_GATEWAY'))) config.metadataIpfsGateway = v;
  if ((v = e('TONGATE_METADATA_TIMEOUT_MS'))) config.metadataTimeoutMs = parseInteger('TONGATE_METADATA_TIMEOUT_MS', v, 100);
  if ((v = e('TONGATE_METADATA_MAX_BYTES'))) config.metadataMaxBytes = parseInteger('TONGATE_METADATA_MAX_BYTES', v, 1024);
  if ((v = e('TONGATE_CORS_ORIGINS'))) config.corsOrigins = parseOrigins('TONGATE_CORS_ORIGINS', v);
  if ((v = e('TONGATE_METADATA_TTL_SECONDS'))) config.metadataTtlSeconds = parseInteger('TONGATE_METADATA_TTL_SECONDS', v, 10);
  if ((v = e('TONGATE_OUTBOUND_ALLOW')))
    config.outboundAllow = v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  config = { ...config, ...overrides };
  try {
    outboundPolicy(config.outboundAllow);
  } catch (err) {
    throw new ConfigError(`TONGATE_OUTBOUND_ALLOW: ${(err as Error).message}`);
  }
  if (config.keysPollMs > 500) throw new ConfigError('keysPollMs must be <= 500 so that revocations apply within a second');
  return config;
}
