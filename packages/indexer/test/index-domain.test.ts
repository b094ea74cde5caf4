/**
 * A v3 index domain is one module, registered in one list: given that list, the store migrates its table, the
 * indexer runs its derivation in each block's transaction and the read side serves its operation. The example
 * domain (example-domain.ts) is registered here the way INDEX_DOMAINS registers the real ones, through the same
 * three seams the service uses (openIndexStore, defaultDerivations, domainOperations).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDevnet, type Devnet, type SeedSummary } from '@tongate/devnet';
import { domainOperations, INDEX_DOMAINS, openIndexStore } from '@tongate/read-model';
import { sql, type Store } from '@tongate/store';
import type { Address } from '@ton/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultDerivations, Indexer } from '../src/index.js';
import { exampleDomain } from './example-domain.js';

const domains = [...INDEX_DOMAINS, exampleDomain] as const;
let devnet: Devnet;
let seeded: SeedSummary;
let store: Store;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-domain-'));

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  seeded = await devnet.seed();
  store = await openIndexStore({ dataDir }, domains);
  await store.migrate();
});

afterAll(async () => {
  await store?.close();
  await devnet?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('runs a registered domain end to end: its table, its derivation over the blocks, its operation', async () => {
  const db = store.chain('testnet');
  const derivations = defaultDerivations(domains);
  expect(derivations.map((d) => d.name)).toEqual(expect.arrayContaining(['vesting', 'multisig', 'example']));
  // A domain's derivation goes by the domain's name in logs and metrics.
  for (const domain of domains) if (domain.derivation) expect(domain.derivation().name).toBe(domain.name);
  const head = (await devnet.getMasterchainInfo()).last.seqno;
  const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10, derivations });
  await indexer.start();
  await indexer.waitFor(head, 60_000);
  await indexer.stop();

  // What the chain tables say each masterchain block committed, against what the example's operation answers.
  const committed = await db
    .selectFrom('blocks as b')
    .where('b.workchain', '=', -1)
    .select((eb) => [
      'b.seqno as mc_seqno',
      eb
        .selectFrom('transactions as t')
        .whereRef('t.mc_block_seqno', '=', 'b.seqno')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('tx_count'),
    ])
    .orderBy('b.seqno')
    .execute();
  const operations = domainOperations(domains, db, true);
  const reply = await operations.getExampleBlockSizes({ query: { from_seqno: 0 } });
  expect(reply.status).toBe(200);
  expect(committed.some((c) => (c.tx_count ?? 0) > 0)).toBe(true);
  expect(reply.body.sizes.map((s) => s.mc_seqno)).toContain(head);
  expect(reply.body.sizes).toEqual(committed);

  // The real domains run beside it from the same list: the seeded vesting wallet is served by its operation.
  const vesting = await operations.getVestingContracts({
    query: { contract_address: [seeded.vesting.address], wallet_address: [] as Address[], limit: 10, offset: 0 },
  } as Parameters<typeof operations.getVestingContracts>[0]);
  expect(vesting.status).toBe(200);
  expect(vesting.body).toMatchObject({ vesting_contracts: [{ owner_address: expect.any(String) }] });
});
