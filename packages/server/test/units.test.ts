import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  createMemoryLimiter,
  createNetworkResolver,
  defaultConfig,
  loadConfig,
  mapError,
  redactUrl,
  settingsTableMarkdown,
  SETTINGS,
} from '../src/index.js';

describe('network resolution', () => {
  const resolver = createNetworkResolver(defaultConfig());
  it('uses host names first, then the port for loopback hosts', () => {
    expect(resolver.resolve('mainnet.localhost:9999', 8081)).toBe('mainnet');
    expect(resolver.resolve('testnet.localhost', 8080)).toBe('testnet');
    expect(resolver.resolve('127.0.0.1:8080', 8080)).toBe('mainnet');
    expect(resolver.resolve('localhost:8081', 8081)).toBe('testnet');
    expect(resolver.resolve('[::1]:8081', 8081)).toBe('testnet');
    expect(resolver.resolve('127.0.0.1:5000', 5000)).toBeUndefined();
    expect(resolver.resolve('evil.example:8080', 8080)).toBeUndefined();
    expect(resolver.resolve(undefined, 8080)).toBeUndefined();
  });
});

describe('configuration', () => {
  it('reads environment variables over defaults and rejects bad values', () => {
    const c = loadConfig({
      TONGATE_MAINNET_HOST: 'api.example.com, MAIN.example.com',
      TONGATE_KEYLESS_RPS: '5',
      REDIS_URL: 'redis://x',
      TONGATE_TRUST_PROXY: '1',
    });
    expect(c.mainnet.hosts).toEqual(['api.example.com', 'main.example.com']);
    expect(c.keylessRps).toBe(5);
    expect(c.keylessBurst).toBe(5);
    expect(c.redisUrl).toBe('redis://x');
    expect(c.trustProxy).toBe(1);
    expect(c.dataDir).toBe('./data');
    expect(() => loadConfig({ TONGATE_KEYLESS_RPS: 'fast' })).toThrow(ConfigError);
    expect(() => loadConfig({ TONGATE_MAINNET_BACKEND: 'magic' })).toThrow(/devnet or liteserver/);
    expect(() => loadConfig({ TONGATE_KEYS_POLL_MS: '2000' })).toThrow(/within a second/);
  });
  it('pending traces: 60 s and 10 000 per network by default, set by environment', () => {
    expect(defaultConfig()).toMatchObject({ pendingTtlSeconds: 60, pendingMaxEntries: 10_000 });
    expect(loadConfig({ TONGATE_PENDING_TTL_S: '5', TONGATE_PENDING_MAX_ENTRIES: '100' })).toMatchObject({
      pendingTtlSeconds: 5,
      pendingMaxEntries: 100,
    });
    expect(() => loadConfig({ TONGATE_PENDING_TTL_S: '0' })).toThrow(/TONGATE_PENDING_TTL_S must be >= 1/);
  });
  it('metadata fetching: off by default; schemes from an allow-list', () => {
    expect(defaultConfig()).toMatchObject({
      metadataFetch: false,
      metadataSchemes: ['https', 'ipfs'],
      metadataTimeoutMs: 5_000,
      metadataMaxBytes: 262_144,
    });
    expect(
      loadConfig({ TONGATE_METADATA_FETCH: 'on', TONGATE_METADATA_SCHEMES: 'HTTPS, http', TONGATE_METADATA_TTL_SECONDS: '60' }),
    ).toMatchObject({ metadataFetch: true, metadataSchemes: ['https', 'http'], metadataTtlSeconds: 60 });
    expect(() => loadConfig({ TONGATE_METADATA_SCHEMES: 'https,file' })).toThrow(/'file' is not one of http, https, ipfs/);
    expect(() => loadConfig({ TONGATE_METADATA_MAX_BYTES: '10' })).toThrow(/TONGATE_METADATA_MAX_BYTES must be >= 1024/);
  });
  it('the .ton DNS collection override: per network, an address or a clear error', () => {
    expect(defaultConfig().mainnet.dnsCollection).toBe('');
    const c = loadConfig({
      TONGATE_MAINNET_DNS_COLLECTION: ' EQC3dNlesgVD8YbAazcauIrXBPfiVhMMr5YYk2in0Mtsz0Bz ',
      TONGATE_TESTNET_DNS_COLLECTION: '0:' + 'ab'.repeat(32),
    });
    expect(c.mainnet.dnsCollection).toBe('EQC3dNlesgVD8YbAazcauIrXBPfiVhMMr5YYk2in0Mtsz0Bz');
    expect(c.testnet.dnsCollection).toBe('0:' + 'ab'.repeat(32));
    expect(() => loadConfig({ TONGATE_TESTNET_DNS_COLLECTION: 'ton.org' })).toThrow(/TONGATE_TESTNET_DNS_COLLECTION must be a TON address/);
    const file = join(mkdtempSync(join(tmpdir(), 'tongate-cfg-')), 'config.json');
    writeFileSync(file, JSON.stringify({ mainnet: { dnsCollection: 'nope' } }));
    expect(() => loadConfig({ TONGATE_CONFIG: file })).toThrow(/mainnet.dnsCollection must be a TON address/);
  });
  it('reads the outbound allow-list and refuses entries that are neither a host, an address nor a block', () => {
    expect(loadConfig({ TONGATE_OUTBOUND_ALLOW: ' ipfs.internal, 10.20.0.0/24 ,fd00::/8' }).outboundAllow).toEqual([
      'ipfs.internal',
      '10.20.0.0/24',
      'fd00::/8',
    ]);
    expect(loadConfig({}).outboundAllow).toEqual([]);
    for (const bad of ['10.0.0.0/33', 'http://x', '*.internal'])
      expect(() => loadConfig({ TONGATE_OUTBOUND_ALLOW: bad }), bad).toThrow(/^TONGATE_OUTBOUND_ALLOW: not .*IP address or CIDR block/);
  });
  it('reads the database schema and refuses names PostgreSQL would need quoted or cut', () => {
    expect(loadConfig({ TONGATE_DATABASE_SCHEMA: 'blue_2' }).databaseSchema).toBe('blue_2');
    expect(loadConfig({}).databaseSchema).toBe('');
    for (const bad of ['Blue', '2blue', 'a-b', 'x'.repeat(56)])
      expect(() => loadConfig({ TONGATE_DATABASE_SCHEMA: bad }), bad).toThrow(/^TONGATE_DATABASE_SCHEMA must be/);
  });
  it('reads how devnets sign their blocks: simplex by default, catchain on request, nothing else', () => {
    expect(loadConfig({}).devnetConsensus).toBe('simplex');
    expect(loadConfig({ TONGATE_DEVNET_CONSENSUS: 'catchain' }).devnetConsensus).toBe('catchain');
    expect(() => loadConfig({ TONGATE_DEVNET_CONSENSUS: 'pow' })).toThrow(/^TONGATE_DEVNET_CONSENSUS must be simplex or catchain, got pow/);
  });
  it('documents every setting', () => {
    const table = settingsTableMarkdown();
    for (const s of SETTINGS) expect(table).toContain(s.env);
    expect(SETTINGS.map((s) => s.env)).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'TONGATE_DATA_DIR', 'TONGATE_TRUST_PROXY', 'TONGATE_MAINNET_HOST']),
    );
  });
});

describe('memory limiter', () => {
  it('allows one request per second on the keyless plan, then reopens', async () => {
    const limiter = createMemoryLimiter();
    const plan = { rps: 1, burst: 1 };
    expect(await limiter.consume('a', plan)).toEqual({ allowed: true });
    expect(await limiter.consume('a', plan)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(await limiter.consume('b', plan)).toEqual({ allowed: true });
    await new Promise((r) => setTimeout(r, 1050));
    expect(await limiter.consume('a', plan)).toEqual({ allowed: true });
  });
  it('honours burst over a longer window', async () => {
    const limiter = createMemoryLimiter();
    const results = [];
    for (let i = 0; i < 6; i++) results.push((await limiter.consume('k', { rps: 2, burst: 4 })).allowed);
    expect(results).toEqual([true, true, true, true, false, false]);
  });
});

describe('redaction and error mapping', () => {
  it('redacts api_key in URLs', () => {
    expect(redactUrl('/api/v2/x?a=1&api_key=tgk_secret&b=2')).toBe('/api/v2/x?a=1&api_key=[REDACTED]&b=2');
    expect(redactUrl('/api/v2/x?API_KEY=tgk_secret')).not.toContain('tgk_secret');
    expect(redactUrl('/api/v2/x?api_key[]=tgk_secret&api_key%5Ba%5D=tgk_other')).toBe(
      '/api/v2/x?api_key[]=[REDACTED]&api_key%5Ba%5D=[REDACTED]',
    );
    expect(redactUrl('/api/v2/x?api_keys=1&xapi_key=2')).toBe('/api/v2/x?api_keys=1&xapi_key=2');
  });
  it('never exposes an unexpected error message', () => {
    expect(mapError(new Error('db password xyz'), 'r1')).toEqual({ status: 500, message: 'internal error (request r1)', unexpected: true });
  });
});
