import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyTrace, expandSupportedActionTypes, readGoldenFixture, visibleActions, type ClassifiedAction } from '@tongate/actions';
import { fixturePath } from '@tongate/testdata';
import { dropSchema, type Store } from '@tongate/store';
import { actionRows, openIndexStore, withDomainTables, type TracesTables } from '@tongate/read-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedOperations } from '@tongate/handlers-v3';

/**
 * supported_action_types and X-Actions-Version in SQL (/actions) agree with the classifier's own `visibleActions`:
 * a getgems purchase is an nft_purchase (a v3 type) enclosing an nft_transfer, so a v1 client sees the transfer and
 * a latest client sees the purchase alone.
 */
const databaseUrl = process.env.DATABASE_URL;
const backends = [
  { name: 'pglite', url: undefined as string | undefined },
  ...(databaseUrl ? [{ name: 'postgres', url: databaseUrl }] : []),
];

describe.each(backends)('/actions by supported action types on $name', ({ name, url }) => {
  const schema = `actions_visibility_${process.pid}_${name}`;
  let store: Store;
  let dir: string;
  let actions: ClassifiedAction[];
  const ctx = (headers: Record<string, string> = {}) => ({ network: 'mainnet' as const, requestId: 't', startedAt: 0, headers });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'tongate-actions-visibility-'));
    store = await openIndexStore({ databaseUrl: url, dataDir: dir, schema: url ? schema : undefined });
    await store.migrate();
    actions = classifyTrace(readGoldenFixture(fixturePath('actions', 'nft--getgems-purchase.json')));
    // Stored as the indexer stores a classified trace (its own row builder).
    const rows = actionRows([{ traceId: actions[0]!.trace_id, state: 'ok', actions }]);
    await withDomainTables<TracesTables>(store.chain('mainnet')).insertInto('actions').values(rows.actions).execute();
    if (rows.accounts.length > 0)
      await withDomainTables<TracesTables>(store.chain('mainnet')).insertInto('action_accounts').values(rows.accounts).execute();
  }, 60_000);
  afterAll(async () => {
    await store.close();
    if (url) await dropSchema(url, schema);
    rmSync(dir, { recursive: true, force: true });
  });

  const listed = async (query: Record<string, unknown>, headers?: Record<string, string>) => {
    const ops = indexedOperations({ db: store.chain('mainnet'), network: 'mainnet' });
    const r = (await ops.getActions({ query: { limit: 100, offset: 0, sort: 'desc', ...query }, ctx: ctx(headers) } as never)) as {
      body: { actions: { type: string }[] };
    };
    return r.body.actions.map((a) => a.type).sort();
  };
  const expected = (requested: string[] | undefined, header?: string) =>
    visibleActions(actions, expandSupportedActionTypes(requested, header))
      .map((a) => a.type)
      .sort();

  it('hides nested actions under a supported ancestor, as visibleActions does', async () => {
    expect(actions.map((a) => a.type)).toEqual(expect.arrayContaining(['nft_purchase', 'nft_transfer']));
    expect(await listed({ supported_action_types: ['v1'] })).toEqual(expected(['v1']));
    expect(await listed({ supported_action_types: ['v1'] })).toContain('nft_transfer');
    expect(await listed({ supported_action_types: ['v1'] })).not.toContain('nft_purchase');
    expect(await listed({})).toEqual(expected(undefined));
    expect(await listed({})).toContain('nft_purchase');
    expect(await listed({})).not.toContain('nft_transfer');
  });

  it('takes X-Actions-Version over the parameter', async () => {
    expect(await listed({ supported_action_types: ['latest'] }, { 'x-actions-version': 'v1' })).toEqual(expected(['latest'], 'v1'));
    expect(await listed({ supported_action_types: ['latest'] }, { 'x-actions-version': 'v1' })).toContain('nft_transfer');
  });
});
