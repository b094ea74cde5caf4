import { expandSupportedActionTypes, toV3Action, visibleActions } from '@tongate/actions';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely } from 'kysely';
import { addressBook } from '@tongate/read-model';
import { rawAddress, rawAddresses, storedHashes } from '@tongate/read-model';
import type { Address } from '@ton/core';
import type { PendingTraces } from './service.js';
import type { PendingEntry } from './store.js';
import { traceAt, transactionAt } from './trace.js';

export type PendingOperations = Pick<V3Handlers, 'getPendingTraces' | 'getPendingActions' | 'getPendingTransactions'>;

/** Traces one pending reply holds at most (an account with many messages in flight gets the newest). */
const MAX_TRACES = 50;

const transactionsOf = (entry: PendingEntry) => Object.values(entry.trace.transactions ?? {}).map((tx) => transactionAt(entry, tx));

/** The three pending operations over one network's pending traces (docs/wire.md: what this service accepted). */
export function pendingOperations(pending: PendingTraces, db: Kysely<ChainDatabase> | undefined, testnet: boolean): PendingOperations {
  const network = pending.network;
  const book = async (addresses: Iterable<string | null | undefined>): Promise<v3.AddressBook> => {
    if (db) return addressBook(db, addresses, testnet);
    return {};
  };

  /** Exactly one of account and ext_msg_hash (traces and actions). */
  const selectEntries = async (query: { account?: Address; ext_msg_hash?: Buffer[] }) => {
    const hashes = storedHashes(query.ext_msg_hash);
    if ((query.account === undefined) === (hashes.length === 0))
      throw new ApiError(422, 'exactly one of account, ext_msg_hash must be given');
    if (query.account !== undefined) {
      const account = rawAddress(query.account);
      return { account, entries: await pending.store.byAccount(network, [account], MAX_TRACES) };
    }
    return { account: undefined, entries: (await pending.store.byHash(network, hashes)).slice(0, MAX_TRACES) };
  };

  return {
    async getPendingTraces({ query }) {
      const { entries } = await selectEntries(query);
      const traces = entries.map(traceAt);
      const addresses = traces.flatMap((t) =>
        Object.values(t.transactions ?? {}).flatMap((tx) => [tx.account, tx.in_msg?.source, ...tx.out_msgs.map((m) => m.destination)]),
      );
      return { status: 200, body: { traces, address_book: await book(addresses), metadata: {} } };
    },

    async getPendingActions({ query }) {
      const { account, entries } = await selectEntries(query);
      const supported = expandSupportedActionTypes(query.supported_action_types);
      const actions: v3.Action[] = [];
      for (const entry of entries) {
        const byHash = new Map(transactionsOf(entry).map((tx) => [tx.hash, tx]));
        for (const a of visibleActions(entry.actions, supported)) {
          if (account && !a.accounts.includes(account)) continue;
          const action = toV3Action(a, { finality: entry.finality });
          if (query.include_transactions) action.transactions_full = a.tx_hashes.flatMap((h) => byHash.get(h) ?? []);
          actions.push(action);
        }
      }
      return {
        status: 200,
        body: { actions, address_book: await book(entries.flatMap((e) => e.actions.flatMap((a) => a.accounts))), metadata: {} },
      };
    },

    async getPendingTransactions({ query }) {
      const accounts = [...new Set(rawAddresses(query.account))];
      const traceIds = storedHashes(query.trace_id);
      if (accounts.length === 0 && traceIds.length === 0) throw new ApiError(422, 'account or trace_id is required');
      let entries =
        traceIds.length > 0 ? await pending.store.byHash(network, traceIds) : await pending.store.byAccount(network, accounts, MAX_TRACES);
      if (traceIds.length > 0) entries = entries.filter((e) => traceIds.includes(e.traceId));
      const wanted = new Set(accounts);
      const transactions = entries.flatMap(transactionsOf).filter((tx) => wanted.size === 0 || wanted.has(tx.account));
      // The hosted API's answer when nothing it emulated matches.
      if (transactions.length === 0) throw new ApiError(404, 'emulated traces not found');
      const addresses = transactions.flatMap((tx) => [
        tx.account,
        tx.in_msg?.source,
        tx.in_msg?.destination,
        ...tx.out_msgs.flatMap((m) => [m.source, m.destination]),
      ]);
      return { status: 200, body: { transactions, address_book: await book(addresses) } };
    },
  };
}
