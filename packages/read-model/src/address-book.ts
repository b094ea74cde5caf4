import { detectInterfaces, detectWalletByCodeHash } from '@tongate/contracts';
import { domainsQuery } from './domains/dns.js';
import { friendlyForms } from './friendly-address.js';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';

/**
 * address_book: every address of a reply → its user-friendly form, domain and interfaces (docs/wire.md). The domain is the
 * shortest `.ton` domain the account owns whose wallet record points back to it (toncenter's rule). The friendly
 * form is non-bounceable for wallets and for accounts without code (uninitialised or unknown), bounceable
 * otherwise, with the testnet flag on testnet. Interfaces follow toncenter's rule (@tongate/contracts): the code
 * hash, else every interface whose get-methods the code defines.
 */

export interface AccountFacts {
  code_hash: string | null;
  contract_methods: number[] | null;
  /** The shortest `.ton` domain whose owner is this account and whose wallet record points back to it. */
  domain?: string | null;
}

export function interfacesOf(facts: AccountFacts | undefined): string[] {
  if (!facts?.code_hash) return [];
  return detectInterfaces(Buffer.from(facts.code_hash, 'base64').toString('hex'), new Set(facts.contract_methods ?? []));
}

const isWallet = (codeHash: string) => detectWalletByCodeHash(Buffer.from(codeHash, 'base64')) !== null;

export function bookEntry(raw: string, facts: AccountFacts | undefined, testnet: boolean): v3.AddressBookEntry {
  const colon = raw.indexOf(':');
  const workchain = Number(raw.slice(0, colon));
  const hash = Buffer.from(raw.slice(colon + 1), 'hex');
  const codeHash = facts?.code_hash ?? null;
  const bounceable = codeHash !== null && !isWallet(codeHash);
  return {
    user_friendly: friendlyForms(workchain, hash, bounceable, testnet).b64url,
    domain: facts?.domain ?? null,
    interfaces: interfacesOf(facts),
  };
}

/**
 * `column = any(…)` over a list, or over a subquery's rows as one array. As an array the planner probes the index once
 * per address: a semi-join against a set-returning subquery (an address book's `addrs`, estimated at thousands of rows
 * whatever it holds) made it hash a sequential scan of the whole table instead.
 */
export function anyOf(accounts: readonly string[] | SelectQueryBuilder<any, any, { account: string }>) {
  return Array.isArray(accounts)
    ? sql<string>`any(${accounts}::text[])`
    : sql<string>`any(array(${accounts as SelectQueryBuilder<any, any, { account: string }>}))`;
}

/** The code facts of accounts (latest_account_states) for the address book; `accounts` is a list or a subquery. */
export function codeFactsQuery(db: Kysely<ChainDatabase>, accounts: readonly string[] | SelectQueryBuilder<any, any, { account: string }>) {
  return db.selectFrom('latest_account_states').select(['account', 'code_hash', 'contract_methods']).where('account', '=', anyOf(accounts));
}

export type CodeFactsRow = { account: string; code_hash: string | null; contract_methods: number[] | null };
export type DomainRow = { dns_wallet: string | null; domain: string };

/** The rows of codeFactsQuery and domainsQuery → each account's facts. */
export function factsFromRows(codeRows: readonly CodeFactsRow[], domainRows: readonly DomainRow[]): Map<string, AccountFacts> {
  const facts = new Map<string, AccountFacts>();
  for (const row of codeRows) facts.set(row.account, { code_hash: row.code_hash, contract_methods: row.contract_methods });
  for (const { dns_wallet, domain } of domainRows) {
    const account = dns_wallet!;
    facts.set(account, { ...(facts.get(account) ?? { code_hash: null, contract_methods: null }), domain });
  }
  return facts;
}

/** What the address book needs of each account, read in one query. */
export async function accountFacts(db: Kysely<ChainDatabase>, addresses: readonly string[]): Promise<Map<string, AccountFacts>> {
  if (addresses.length === 0) return new Map();
  const rows = await codeFactsQuery(db, addresses).execute();
  const domains = await domainsQuery(db, addresses).execute();
  return factsFromRows(rows, domains);
}

/** Raw addresses, nulls skipped, each once in first-seen order (the order of the address book's keys). */
export const uniqueAddresses = (addresses: Iterable<string | null | undefined>) => [
  ...new Set([...addresses].filter((a): a is string => typeof a === 'string')),
];

/** The address book of `unique` addresses from their facts. */
export function bookOf(unique: readonly string[], facts: Map<string, AccountFacts>, testnet: boolean): v3.AddressBook {
  const book: v3.AddressBook = {};
  for (const raw of unique) book[raw] = bookEntry(raw, facts.get(raw), testnet);
  return book;
}

/** The address book of every address in `addresses` (raw forms; nulls skipped). */
export async function addressBook(
  db: Kysely<ChainDatabase>,
  addresses: Iterable<string | null | undefined>,
  testnet: boolean,
): Promise<v3.AddressBook> {
  const unique = uniqueAddresses(addresses);
  return bookOf(unique, await accountFacts(db, unique), testnet);
}
