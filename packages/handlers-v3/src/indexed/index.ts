/**
 * The v3 operations over the index: one query module per domain whose tables the store declares here (blocks,
 * transactions, messages, accounts), and the operations of the domains declared whole in @tongate/read-model
 * (`INDEX_DOMAINS`, its `domains/`: traces and actions, tokens, sales, DNS, …), where a new domain goes. The handler shape (README, Layout: "one operation's path"):
 *
 *   async getThings({ query, ctx }) { ... return { status: 200, body } }
 *
 * `query` is the generated `V3Inputs['getThings']['query']` (@tongate/stubs): validated against the spec and
 * decoded, so a handler never parses or re-checks a parameter. Addresses arrive as `Address` (lists as
 * `Address[]`), hashes as `Buffer`, lt and shard as `bigint`, opcodes as signed 32-bit numbers, integers as
 * numbers, comma lists split, and `limit`/`offset`/`sort` with the spec's defaults. Turn them into the stored
 * forms with @tongate/read-model: `rawAddresses(query.account)`, `storedHash(query.hash)`, `storedHashes(query.msg_hash)`,
 * `decimal(query.lt)`, `endpoint(query.source)`, `page(query)`, `window(query)`. Only checks the spec cannot
 * express belong in a handler (mutually exclusive filters, say), each a `new ApiError(422, '<param>: why')`.
 * A limit or default is written in the spec only.
 */
import type { Network } from '@tongate/chain';
import { isQueryTimeout, type ChainDatabase } from '@tongate/store';
import { ApiError, type RequestContext } from '@tongate/stubs';
import { requestTimeoutMs } from '../reply-settings.js';
import type { Kysely } from 'kysely';
import { domainOperations, INDEX_DOMAINS, type IndexDomainOperations } from '@tongate/read-model';
import { accountOperations, type AccountOperations } from './accounts.js';
import { blockOperations, type BlockOperations } from './blocks.js';
import { messageOperations, type MessageOperations } from './messages.js';
import { transactionOperations, type TransactionOperations } from './transactions.js';

export type IndexedOperations = BlockOperations & TransactionOperations & MessageOperations & AccountOperations & IndexDomainOperations;

export interface IndexedDeps {
  /** The network's chain tables, as the indexer fills them. */
  db: Kysely<ChainDatabase>;
  network: Network;
  /** The database's statement timeout for these reads, when it has one: a query past it answers 504. */
  readTimeoutMs?: number;
}

/**
 * The reply, or 504 once `ms` have passed. The statement itself runs on until it ends or the database's own read
 * timeout cancels it: the client is answered in time, and the work stays bounded by that timeout.
 */
export function withDeadline<T>(reply: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ApiError(504, `X-Timeout: the reads took longer than ${ms} ms: narrow the filters or allow more time`)),
      ms,
    );
  });
  reply.catch(() => undefined);
  return Promise.race([reply, deadline]).finally(() => clearTimeout(timer));
}

/** The v3 operations over indexed chain data: one query module per domain (request → SQL → wire shape). */
export function indexedOperations({ db, network, readTimeoutMs }: IndexedDeps): IndexedOperations {
  const testnet = network === 'testnet';
  const operations: IndexedOperations = {
    ...blockOperations(db),
    ...transactionOperations(db, testnet),
    ...messageOperations(db, testnet),
    ...accountOperations(db, testnet),
    ...domainOperations(INDEX_DOMAINS, db, testnet),
  };
  // A query the database cancels at its statement timeout is the client's to narrow (504), not a 500.
  for (const [name, operation] of Object.entries(operations) as [string, (input: { ctx?: RequestContext }) => Promise<unknown>][]) {
    (operations as unknown as Record<string, unknown>)[name] = (input: { ctx?: RequestContext }) => {
      const limitMs = requestTimeoutMs(input.ctx, readTimeoutMs);
      const reply = operation(input).catch((err: unknown) => {
        if (isQueryTimeout(err))
          throw new ApiError(
            504,
            `the query took longer than ${readTimeoutMs ?? 'the allowed'} ms: narrow the filters or lower the offset`,
          );
        throw err;
      });
      return limitMs === undefined ? reply : withDeadline(reply, limitMs);
    };
  }
  return operations;
}
