import type { Network } from '@tongate/chain';
import { isQueryTimeout, type ChainDatabase } from '@tongate/store';
import { ApiError } from '@tongate/stubs';
import type { Kysely } from 'kysely';
import { accountOperations, type AccountOperations } from './accounts.js';
import { blockOperations, type BlockOperations } from './blocks.js';
import { messageOperations, type MessageOperations } from './messages.js';
import { checkedIntegers } from './params.js';
import { jettonOperations, type JettonOperations } from './jettons.js';
import { metadataOperations, type MetadataOperations } from './metadata.js';
import { nftOperations, type NftOperations } from './nfts.js';
import { salesOperations, type SalesOperations } from './sales.js';
import { transactionOperations, type TransactionOperations } from './transactions.js';

export type IndexedOperations = BlockOperations &
  TransactionOperations &
  MessageOperations &
  AccountOperations &
  JettonOperations &
  NftOperations &
  MetadataOperations &
  SalesOperations;

export { readNftItems } from './nfts.js';
export { tokenMetadata } from './metadata.js';

export interface IndexedDeps {
  /** The network's chain tables, as the indexer fills them. */
  db: Kysely<ChainDatabase>;
  network: Network;
  /** The database's statement timeout for these reads, when it has one: a query past it answers 504. */
  readTimeoutMs?: number;
}

/** The v3 operations over indexed chain data: one query module per domain (request → SQL → wire shape). */
export function indexedOperations({ db, network, readTimeoutMs }: IndexedDeps): IndexedOperations {
  const testnet = network === 'testnet';
  const operations: IndexedOperations = {
    ...blockOperations(db),
    ...transactionOperations(db, testnet),
    ...messageOperations(db, testnet),
    ...accountOperations(db, testnet),
    ...jettonOperations(db, testnet),
    ...nftOperations(db, testnet),
    ...metadataOperations(db),
    ...salesOperations(db, testnet),
  };
  // Every operation sees its integer parameters checked (params.ts: checkedIntegers).
  // and a query the database cancels at its statement timeout is the client's to narrow (504), not a 500.
  for (const [name, operation] of Object.entries(operations) as [string, (input: { query?: object }) => Promise<unknown>][]) {
    (operations as unknown as Record<string, unknown>)[name] = (input: { query?: object }) =>
      operation({ ...input, query: checkedIntegers(input.query) }).catch((err: unknown) => {
        if (isQueryTimeout(err)) throw new ApiError(504, `the query took longer than ${readTimeoutMs ?? 'the allowed'} ms: narrow the filters or lower the offset`);
        throw err;
      });
  }
  return operations;
}
