/**
 * The metadata object: on-chain TEP-64 content as it is, off-chain content `is_indexed: false` until the fetcher
 * cached its document, then merged with it (on-chain fields win); failed fetches say `valid: false`; a document of
 * an older URI is not served; jetton wallets only where asked. PGlite, or PostgreSQL when DATABASE_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore, withDomainTables, type IndexTables, type TokenTables } from '@tongate/read-model';
import { tokenMetadata } from '@tongate/read-model';

let store: Store;
const dir = mkdtempSync(path.join(tmpdir(), 'tongate-metadata-read-'));
const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = databaseUrl ? `metaread_${process.pid}_${Date.now().toString(36)}` : undefined;
const addr = (n: number) => `0:${n.toString(16).padStart(64, '0').toUpperCase()}`;
const now = Math.floor(Date.now() / 1000);

beforeAll(async () => {
  store = await openIndexStore({ dataDir: dir, databaseUrl, schema });
  await store.migrate();
  const db = withDomainTables<TokenTables>(store.chain('mainnet'));
  const master = (n: number, content: Record<string, string> | null) => ({
    address: addr(n),
    total_supply: 1,
    mintable: true,
    admin_address: null,
    jetton_content: JSON.stringify(content),
    jetton_wallet_code_hash: 'h',
    code_hash: 'c',
    data_hash: 'd',
    last_transaction_lt: 1,
  });
  await db
    .insertInto('jetton_masters')
    .values([
      master(1, { name: 'On chain', symbol: 'ONC', decimals: '6', image_data: 'AAAA' }),
      master(2, { uri: 'https://a.invalid/2.json' }),
      master(3, { uri: 'https://a.invalid/3.json', name: 'Chain name' }),
      master(4, { uri: 'https://a.invalid/4.json' }),
      master(5, { uri: 'https://a.invalid/5-new.json' }),
      master(6, null),
      master(7, { uri: 'http://127.0.0.1/7.json', name: 'Internal' }),
    ])
    .execute();
  const doc = (n: number, uri: string, fields: object) => ({
    address: addr(n),
    type: 'jetton_masters',
    uri,
    valid: true,
    name: null,
    symbol: null,
    description: null,
    image: null,
    extra: JSON.stringify(null),
    error: null,
    updated_at: now,
    expires_at: now + 100,
    ...fields,
  });
  await db
    .insertInto('address_metadata')
    .values([
      doc(3, 'https://a.invalid/3.json', { name: 'Doc name', symbol: 'DOC', extra: JSON.stringify({ decimals: '9' }) }),
      doc(4, 'https://a.invalid/4.json', { valid: false, error: 'HTTP 404' }),
      doc(5, 'https://a.invalid/5-old.json', { name: 'Old' }),
      doc(7, 'http://127.0.0.1/7.json', { valid: false, refused: true, error: 'refused: 127.0.0.1 is loopback' }),
    ])
    .execute();
  await db
    .insertInto('jetton_wallets')
    .values({ address: addr(10), balance: 42, owner: addr(11), jetton: addr(1), last_transaction_lt: 1, code_hash: null, data_hash: null })
    .execute();
}, 120_000);

afterAll(async () => {
  await store.close();
  if (databaseUrl) await dropSchema(databaseUrl, schema!);
  rmSync(dir, { recursive: true, force: true });
});

it('serves on-chain content, cached documents merged under it, and says what is not indexed', async () => {
  const db = store.chainReader('mainnet');
  const m = await tokenMetadata(db, [1, 2, 3, 4, 5, 6, 7, 10, 11].map(addr));
  expect(Object.keys(m).sort()).toEqual([1, 2, 3, 4, 5, 6, 7].map(addr));
  expect(m[addr(1)]).toEqual({
    is_indexed: true,
    token_info: [{ type: 'jetton_masters', valid: true, name: 'On chain', symbol: 'ONC', extra: { decimals: '6' } }],
  });
  expect(m[addr(2)]).toEqual({ is_indexed: false, token_info: [{ type: 'jetton_masters', valid: true }] });
  expect(m[addr(3)]).toEqual({
    is_indexed: true,
    token_info: [{ type: 'jetton_masters', valid: true, name: 'Chain name', symbol: 'DOC', extra: { decimals: '9' } }],
  });
  expect(m[addr(4)]).toEqual({ is_indexed: true, token_info: [{ type: 'jetton_masters', valid: false }] });
  expect(m[addr(5)]).toEqual({ is_indexed: false, token_info: [{ type: 'jetton_masters', valid: true }] });
  expect(m[addr(6)]).toEqual({ is_indexed: true, token_info: [{ type: 'jetton_masters', valid: false }] });
  // A destination the outbound guard refused was never fetched: not indexed, on-chain fields only.
  expect(m[addr(7)]).toEqual({ is_indexed: false, token_info: [{ type: 'jetton_masters', valid: true, name: 'Internal' }] });
  const withWallets = await tokenMetadata(db, [addr(10)], { wallets: true });
  expect(withWallets[addr(10)]).toEqual({
    is_indexed: true,
    token_info: [{ type: 'jetton_wallets', valid: true, extra: { owner: addr(11), jetton: addr(1), balance: '42' } }],
  });
  expect(await tokenMetadata(db, [])).toEqual({});
});
