/**
 * The ingest rounds of bench:v3 on one backend, in a process of their own as the indexer runs in production
 * (`tongate index`): the corpus (every masterchain block as the indexer collected it, v8-serialized by the parent)
 * written through the indexer's write path (writeMcBlock, one database transaction per block) into fresh tables,
 * ROUNDS times. One process per backend, so that neither backend's rounds share a heap with the other's (PGlite is a
 * WebAssembly PostgreSQL inside the process). Prints one JSON line: the rounds' rates.
 *
 *   BENCH_V3_CORPUS=<file> BENCH_V3_DATA_DIR=<dir> BENCH_V3_INGEST_BACKEND=pglite|postgres [DATABASE_URL=…]
 *   [BENCH_V3_INGEST_ROUNDS=3] tsx bench/v3-ingest.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import { writeMcBlock, type McBlockBatch } from '@tongate/indexer';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';

const corpusFile = process.env.BENCH_V3_CORPUS;
const dataDir = process.env.BENCH_V3_DATA_DIR;
if (!corpusFile || !dataDir) throw new Error('BENCH_V3_CORPUS and BENCH_V3_DATA_DIR are needed');
const databaseUrl = process.env.DATABASE_URL || undefined;
const rounds = Number(process.env.BENCH_V3_INGEST_ROUNDS ?? 3);
const batches = v8.deserialize(readFileSync(corpusFile)) as McBlockBatch[];
const transactions = batches.reduce((n, b) => n + b.transactions.length, 0);

async function ingestRound(store: Store): Promise<number> {
  const db = store.chain('testnet');
  const started = performance.now();
  for (const batch of batches) await writeMcBlock(db, batch);
  return Math.round((transactions / ((performance.now() - started) / 1000)) * 10) / 10;
}

const backend = process.env.BENCH_V3_INGEST_BACKEND;
if (backend !== 'pglite' && backend !== 'postgres') throw new Error('BENCH_V3_INGEST_BACKEND is pglite or postgres');
if (backend === 'postgres' && !databaseUrl) throw new Error('the postgres rounds need DATABASE_URL');
const results: { backend: string; transactionsPerSecond: number }[] = [];
for (let r = 0; r < rounds; r++) {
  if (backend === 'pglite') {
    const pglite = await openIndexStore({ dataDir: join(dataDir, `ingest-${process.pid}-${r}`) });
    await pglite.migrate();
    results.push({ backend, transactionsPerSecond: await ingestRound(pglite) });
    await pglite.close();
  } else {
    const schema = `bench_v3_ingest_${process.pid}_${r}`;
    const pg = await openIndexStore({ databaseUrl, schema });
    await pg.migrate();
    try {
      results.push({ backend, transactionsPerSecond: await ingestRound(pg) });
    } finally {
      await pg.close();
      await dropSchema(databaseUrl!, schema);
    }
  }
  process.stderr.write(`ingest round ${r + 1}: ${backend} ${results.at(-1)!.transactionsPerSecond} tx/s\n`);
}
process.stdout.write(`${JSON.stringify({ transactions, rounds: results })}\n`);
