/**
 * The off-chain metadata fetcher against local HTTP servers: documents are cached with their expiry; a disallowed
 * scheme, a slow server, an oversized or non-JSON document are cached as failures with the reason (and retried
 * sooner); a changed content URI or an expired entry is fetched again. The document server stands for a public one
 * (127.0.0.2, opened by the allow-list); a second server on 127.0.0.1 stands for an internal service, and tokens
 * that point at it in any form are refused without a request reaching it. PGlite, or PostgreSQL when DATABASE_URL
 * is set.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore, withDomainTables, type IndexTables, type TokenTables } from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outboundPolicy } from '@tongate/outbound';
import { MetadataFetcher, fetchUrl, type MetadataFetcherOptions } from '../src/index.js';

let server: Server;
let internal: Server;
let internalHits = 0;
let base: string;
let internalBase: string;
let store: Store;
let db: Kysely<IndexTables<TokenTables>>;
let slowRequests = 0;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-metadata-'));
const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = databaseUrl ? `metadata_${process.pid}_${Date.now().toString(36)}` : undefined;

const addr = (n: number) => `0:${n.toString(16).padStart(64, '0').toUpperCase()}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok.json')
      return res.end(JSON.stringify({ name: 'Doc token', symbol: 'DOC', decimals: 9, image: 'https://x.invalid/i.png', social: ['a'] }));
    if (req.url === '/v2.json') return res.end(JSON.stringify({ name: 'Doc token v2' }));
    if (req.url === '/big.json') return res.end(JSON.stringify({ name: 'x'.repeat(5000) }));
    if (req.url === '/notjson') return res.end('<html>');
    const to = new URL(req.url!, 'http://x').searchParams.get('to');
    if (to) return void (res.writeHead(302, { location: to }), res.end());
    if (req.url === '/slow.json') {
      slowRequests++;
      return void setTimeout(() => res.end('{}'), 2_000);
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  base = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  internal = createServer((_req, res) => (internalHits++, res.end(JSON.stringify({ name: 'internal secret' }))));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  const port = (internal.address() as AddressInfo).port;
  internalBase = `http://127.0.0.1:${port}`;
  store = await openIndexStore({ dataDir, databaseUrl, schema });
  await store.migrate();
  db = withDomainTables<TokenTables>(store.chain('testnet'));
  const master = (n: number, uri: string) => ({
    address: addr(n),
    total_supply: 1,
    mintable: true,
    admin_address: null,
    jetton_content: JSON.stringify({ uri }),
    jetton_wallet_code_hash: 'h',
    code_hash: 'c',
    data_hash: 'd',
    last_transaction_lt: 1,
  });
  await db
    .insertInto('jetton_masters')
    .values([
      master(1, `${base}/ok.json`),
      master(2, `${base}/big.json`),
      master(3, `${base}/notjson`),
      master(4, `${base}/slow.json`),
      master(5, 'ftp://x.invalid/a.json'),
      master(6, `${base}/missing`),
    ])
    .execute();
  await db
    .insertInto('nft_items')
    .values({
      address: addr(7),
      init: true,
      index: 0,
      collection_address: null,
      owner_address: null,
      content: JSON.stringify({ name: 'on-chain only' }),
      last_transaction_lt: 1,
      code_hash: 'c',
      data_hash: 'd',
      real_owner: null,
    })
    .execute();
}, 120_000);

afterAll(async () => {
  server?.close();
  internal?.close();
  await store?.close();
  if (databaseUrl) await dropSchema(databaseUrl, schema!);
  rmSync(dataDir, { recursive: true, force: true });
});

const policy = outboundPolicy(['127.0.0.2/32']);
const fetcher = (extra: Partial<MetadataFetcherOptions> = {}) =>
  new MetadataFetcher({
    db,
    policy,
    schemes: ['http'],
    ipfsGateway: 'https://gw.invalid/ipfs/',
    timeoutMs: 500,
    maxBytes: 1024,
    ttlSeconds: 1000,
    concurrency: 3,
    ...extra,
  });

it('maps URIs to fetchable URLs by the allow-list (ipfs through the gateway)', () => {
  expect(fetchUrl('ipfs://bafyabc/meta.json', ['ipfs'], 'https://gw.invalid/ipfs/').href).toBe('https://gw.invalid/ipfs/bafyabc/meta.json');
  expect(() => fetchUrl('https://a.invalid/x', ['http'], '')).toThrow(/scheme https is not allowed/);
  expect(() => fetchUrl('not a url', ['http'], '')).toThrow(/not a URL/);
});

it('fetches every due document once, caching documents and failures with their reasons', async () => {
  const f = fetcher();
  expect((await f.due(100)).map((d) => d.address).sort()).toEqual([1, 2, 3, 4, 5, 6].map(addr));
  const started = Date.now();
  expect(await f.runOnce()).toBe(6);
  // The slow server is cut off at the time limit, not waited for.
  expect(Date.now() - started).toBeLessThan(1_900);
  const rows = new Map((await db.selectFrom('address_metadata').selectAll().execute()).map((r) => [r.address, r]));
  expect(rows.get(addr(1))).toMatchObject({
    type: 'jetton_masters',
    valid: true,
    name: 'Doc token',
    symbol: 'DOC',
    image: 'https://x.invalid/i.png',
    extra: { decimals: '9', social: ['a'] },
    error: null,
  });
  expect(rows.get(addr(2))).toMatchObject({ valid: false, error: 'document larger than 1024 bytes' });
  expect(rows.get(addr(3))).toMatchObject({ valid: false, error: 'not JSON' });
  expect(rows.get(addr(4))).toMatchObject({ valid: false, error: 'no answer within 500 ms' });
  expect(rows.get(addr(5))).toMatchObject({ valid: false, error: 'scheme ftp is not allowed' });
  expect(rows.get(addr(6))).toMatchObject({ valid: false, error: 'HTTP 404' });
  for (const row of rows.values()) expect(row.refused).toBe(false);
  const ok = rows.get(addr(1))!;
  expect(ok.expires_at - ok.updated_at).toBe(1000);
  // Failures are retried after a tenth of the expiry.
  expect(rows.get(addr(2))!.expires_at - rows.get(addr(2))!.updated_at).toBe(100);
  expect(slowRequests).toBe(1);
  // Content without a URI (on-chain) has nothing to fetch.
  expect(rows.has(addr(7))).toBe(false);
  expect(await f.due(100)).toEqual([]);
});

it('fetches again when the content URI changes or the entry expires', async () => {
  const f = fetcher();
  await db
    .updateTable('jetton_masters')
    .set({ jetton_content: JSON.stringify({ uri: `${base}/v2.json` }) })
    .where('address', '=', addr(1))
    .execute();
  expect((await f.due(100)).map((d) => d.uri)).toEqual([`${base}/v2.json`]);
  await f.runOnce();
  expect(await db.selectFrom('address_metadata').select(['name', 'uri']).where('address', '=', addr(1)).executeTakeFirst()).toEqual({
    name: 'Doc token v2',
    uri: `${base}/v2.json`,
  });
  const later = Math.floor(Date.now() / 1000) + 101;
  expect((await f.due(100, later)).map((d) => d.address).sort()).toEqual([2, 3, 4, 5, 6].map(addr));
  expect((await f.due(100, later + 1000)).map((d) => d.address).sort()).toEqual([1, 2, 3, 4, 5, 6].map(addr));
});

it('walks the tables a page at a time from where it stopped, wrapping around', async () => {
  const f = fetcher();
  const later = Math.floor(Date.now() / 1000) + 100_000;
  const rounds = [];
  for (let i = 0; i < 4; i++) rounds.push((await f.due(2, later)).map((d) => d.address));
  expect(rounds).toEqual([
    [addr(1), addr(2)],
    [addr(3), addr(4)],
    [addr(5), addr(6)],
    [addr(1), addr(2)],
  ]);
});

it('refuses tokens that point at an internal service, in every form, caching the reason like a failure', async () => {
  const port = new URL(internalBase).port;
  const hostile = [
    internalBase + '/direct.json',
    `http://[::ffff:127.0.0.1]:${port}/mapped.json`,
    `http://2130706433:${port}/decimal.json`,
    `http://0x7f000001:${port}/hex.json`,
    `http://localhost:${port}/name.json`,
    `${base}/redirect?to=${encodeURIComponent(internalBase + '/redirected.json')}`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://user:pw@127.0.0.2:${port}/creds.json`,
  ];
  await db.deleteFrom('address_metadata').execute();
  await db.deleteFrom('jetton_masters').execute();
  await db
    .insertInto('nft_collections')
    .values(
      hostile.map((uri, i) => ({
        address: addr(100 + i),
        next_item_index: 0,
        owner_address: null,
        collection_content: JSON.stringify({ uri }),
        last_transaction_lt: 1,
        code_hash: 'c',
        data_hash: 'd',
      })),
    )
    .execute();
  const logged: object[] = [];
  const f = fetcher({ logger: { info: () => {}, warn: (obj: object) => logged.push(obj) } });
  expect(await f.runOnce()).toBe(hostile.length);
  expect(internalHits).toBe(0);
  const rows = await db.selectFrom('address_metadata').selectAll().orderBy('address').execute();
  expect(rows).toHaveLength(hostile.length);
  for (const row of rows) {
    expect(row, row.uri).toMatchObject({ valid: false, refused: true, name: null });
    expect(row.error, row.uri).toMatch(/^refused: /);
    // Retried no sooner than any failure.
    expect(row.expires_at - row.updated_at).toBe(100);
  }
  expect(rows.find((r) => r.uri.includes('redirect'))!.error).toMatch(/^refused: redirect refused: 127\.0\.0\.1 is loopback/);
  expect(rows.find((r) => r.uri.includes('169.254'))!.error).toBe('refused: 169.254.169.254 is link-local');
  expect(rows.find((r) => r.uri.includes('creds'))!.error).toBe('refused: credentials in the URL are not allowed');
  expect(f.status()).toEqual({ fetched: 0, failed: 0, refused: hostile.length });
  expect(logged).toHaveLength(hostile.length);
  expect(logged[0]).toMatchObject({ address: expect.any(String), reason: expect.stringMatching(/^refused: /) });
  // Nothing is due again before the retry time.
  expect(await f.due(100)).toEqual([]);
});
