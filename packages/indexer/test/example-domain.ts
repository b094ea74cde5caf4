/**
 * An example v3 index domain, complete in one module the way a real one is (packages/read-model/src/domains/): a
 * table with its migration, a derivation that fills it from each masterchain block, and an operation that reads
 * it. index-domain.test.ts registers it beside the real domains.
 */
import { indexDomain, type BlockDerivation, type IndexTables } from '@tongate/read-model';
import type { Kysely } from 'kysely';

/** How many transactions each masterchain block committed, as the derivation counted them. */
export interface ExampleTables {
  example_block_sizes: { mc_seqno: number; tx_count: number };
}

function exampleDerivation(): BlockDerivation<number, IndexTables<ExampleTables>> {
  return {
    name: 'example',
    async prepare(batch) {
      return batch.transactions.length;
    },
    async write(trx, batch, txCount) {
      await trx.insertInto('example_block_sizes').values({ mc_seqno: batch.mcSeqno, tx_count: txCount }).execute();
    },
  };
}

function exampleOperations(db: Kysely<IndexTables<ExampleTables>>) {
  return {
    async getExampleBlockSizes({ query }: { query: { from_seqno: number } }) {
      const sizes = await db
        .selectFrom('example_block_sizes')
        .selectAll()
        .where('mc_seqno', '>=', query.from_seqno)
        .orderBy('mc_seqno')
        .execute();
      return { status: 200 as const, body: { sizes } };
    },
  };
}

export const exampleDomain = indexDomain<ExampleTables>()({
  name: 'example',
  migrations: (run) => ({
    '9900_example_block_sizes': {
      async up(db) {
        await run(db, [`create table $S.example_block_sizes (mc_seqno integer primary key, tx_count integer not null)`]);
      },
    },
  }),
  derivation: exampleDerivation,
  operations: exampleOperations,
});
