import { expandSupportedActionTypes, toV3Action, type ClassifiedAction, type V3Action } from '@tongate/actions';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type RequestContext, type V3Handlers } from '@tongate/stubs';
import { sql, type Expression, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { rawAddress } from '../../address.js';
import { addressBook } from '../../address-book.js';
import { page, storedHashes, window } from '../../params.js';
import { transactionsReply } from '../../transactions-reply.js';
import type { TracesDb } from './classify.js';
import type { ActionsTable } from './tables.js';

export type ActionOperations = Pick<V3Handlers, 'getActions'>;

type ActionRow = Selectable<ActionsTable>;

/** The columns /actions filters and orders on, in both actions and action_accounts. */
type FilterColumns = Pick<
  ActionsTable,
  'trace_id' | 'action_id' | 'type' | 'ancestor_type' | 'end_lt' | 'trace_end_lt' | 'trace_end_utime' | 'trace_mc_seqno_end'
>;

const ACTION_TYPE = /^[A-Za-z0-9_.]+$/;

/** action_type / exclude_action_type / supported_action_types items, checked against the names' form. */
export function actionTypeList(name: string, values: readonly string[] | undefined): string[] {
  const items = (values ?? []).map((v) => v.trim()).filter((v) => v !== '');
  for (const item of items) if (!ACTION_TYPE.test(item)) throw new ApiError(422, `${name}: '${item}' is not an action type`);
  return [...new Set(items)];
}

/** The action types a request asks to see: `X-Actions-Version` wins over `supported_action_types`; default latest. */
export function supportedTypes(query: { supported_action_types?: string[] }, ctx: RequestContext | undefined): Set<string> {
  const header = ctx?.headers?.['x-actions-version'];
  const headerText = Array.isArray(header) ? header.join(',') : header;
  if (headerText) actionTypeList('X-Actions-Version', headerText.split(','));
  return expandSupportedActionTypes(actionTypeList('supported_action_types', query.supported_action_types), headerText);
}

/**
 * SQL condition: an action a client with these supported types sees — its type is supported and none of the
 * actions enclosing it is (the client shows that one instead). Mirrors `visibleActions` of @tongate/actions.
 */
export function visibleCondition(supported: ReadonlySet<string>, ref = 'a'): Expression<SqlBool> {
  const types = [...supported];
  return sql<SqlBool>`(${sql.ref(`${ref}.type`)} in (${sql.join(types)}) and not (${sql.ref(`${ref}.ancestor_type`)} ?| cast(${types} as text[])))`;
}

export interface ActionFormatOptions {
  includeAccounts?: boolean;
  finality?: V3Action['finality'];
}

/** A stored action in the /actions item shape. */
export function formatAction(row: Pick<ActionRow, 'data'>, options: ActionFormatOptions = {}): v3.Action {
  return toV3Action(row.data as unknown as ClassifiedAction, options) as v3.Action;
}

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** Every address an action names (its accounts and the addresses among its details), for the address book. */
export function actionAddresses(action: v3.Action, row?: Pick<ActionRow, 'data'>): string[] {
  const out: string[] = [...((row?.data as { accounts?: string[] } | undefined)?.accounts ?? action.accounts ?? [])];
  for (const v of Object.values(action.details ?? {})) if (typeof v === 'string' && RAW_ADDRESS.test(v)) out.push(v);
  return out;
}

/** Hashes of the transactions that carry these messages (in or out; external messages by their normalized hash too). */
export async function transactionsOfMessages(db: Kysely<ChainDatabase>, msgHashes: string[]): Promise<string[]> {
  if (msgHashes.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select('tx_hash')
    .distinct()
    .where((eb) => eb.or([eb('msg_hash', 'in', msgHashes), eb('msg_hash_norm', 'in', msgHashes)]))
    .limit(10_000)
    .execute();
  return rows.map((r) => r.tx_hash);
}

export function actionOperations(db: Kysely<TracesDb>, testnet: boolean): ActionOperations {
  return {
    async getActions({ query, ctx }) {
      const { limit, offset, sort } = page(query);
      const account = query.account ? rawAddress(query.account) : undefined;
      const txHashes = storedHashes(query.tx_hash);
      const msgHashes = storedHashes(query.msg_hash);
      const actionIds = storedHashes(query.action_id);
      const traceIds = storedHashes(query.trace_id);
      const only = actionTypeList('action_type', query.action_type);
      const excluded = actionTypeList('exclude_action_type', query.exclude_action_type);
      const supported = supportedTypes(query, ctx);
      const { startLt, endLt, startUtime, endUtime } = window(query);
      const empty = { status: 200 as const, body: { actions: [], address_book: {}, metadata: {} } };

      const carriers = [...txHashes, ...(await transactionsOfMessages(db, msgHashes))];
      if (msgHashes.length > 0 && carriers.length === txHashes.length) return empty;

      // The list is picked from action_accounts when an account is given (its index yields that account's actions
      // in order, with every filter column beside them), else from actions; both name the columns alike.
      let q = (account
        ? db.selectFrom('action_accounts as f').where('f.account', '=', account)
        : db.selectFrom('actions as f')) as unknown as SelectQueryBuilder<{ f: FilterColumns }, 'f', object>;
      q = q.where(visibleCondition(supported, 'f'));
      if (carriers.length > 0) {
        const containing = db
          .selectFrom('actions as x')
          .select(['x.trace_id', 'x.action_id'])
          .where('x.trace_id', 'in', db.selectFrom('trace_transactions').select('trace_id').where('tx_hash', 'in', carriers))
          .where(sql<SqlBool>`x.tx_hashes ?| cast(${carriers} as text[])`);
        q = q.where((eb) => eb(eb.refTuple('f.trace_id', 'f.action_id'), 'in', containing.$asTuple('trace_id', 'action_id') as never));
      }
      if (actionIds.length > 0) q = q.where('f.action_id', 'in', actionIds);
      if (traceIds.length > 0) q = q.where('f.trace_id', 'in', traceIds);
      if (query.mc_seqno !== undefined) q = q.where('f.trace_mc_seqno_end', '=', query.mc_seqno);
      if (only.length > 0) q = q.where('f.type', 'in', only);
      if (excluded.length > 0) q = q.where('f.type', 'not in', excluded);
      if (startUtime !== undefined) q = q.where('f.trace_end_utime', '>=', startUtime);
      if (endUtime !== undefined) q = q.where('f.trace_end_utime', '<=', endUtime);
      if (startLt !== undefined) q = q.where('f.trace_end_lt', '>=', startLt);
      if (endLt !== undefined) q = q.where('f.trace_end_lt', '<=', endLt);
      // Total order of the spec: (trace_end_lt, trace_id, end_lt, action_id).
      const picked = await q
        .select(['f.trace_id', 'f.action_id'])
        .orderBy('f.trace_end_lt', sort)
        .orderBy('f.trace_id', sort)
        .orderBy('f.end_lt', sort)
        .orderBy('f.action_id', sort)
        .limit(limit)
        .offset(offset)
        .execute();
      if (picked.length === 0) return empty;
      const found = await db
        .selectFrom('actions')
        .selectAll()
        .where('trace_id', 'in', [...new Set(picked.map((p) => p.trace_id))])
        .where('action_id', 'in', [...new Set(picked.map((p) => p.action_id))])
        .execute();
      const byKey = new Map(found.map((r) => [`${r.trace_id} ${r.action_id}`, r]));
      const rows = picked.map((p) => byKey.get(`${p.trace_id} ${p.action_id}`)).filter((r): r is ActionRow => r !== undefined);
      if (rows.length === 0) return empty;

      const actions = rows.map((r) => formatAction(r, { includeAccounts: query.include_accounts === true }));
      const addresses = actions.flatMap((a, i) => actionAddresses(a, rows[i]));
      if (query.include_transactions) {
        const hashes = [...new Set(actions.flatMap((a) => a.transactions))];
        const full =
          hashes.length > 0
            ? await transactionsReply(db, db.selectFrom('transactions').selectAll().where('hash', 'in', hashes), null, testnet)
            : { transactions: [], address_book: {} };
        const byHash = new Map(full.transactions.map((t) => [t.hash, t]));
        for (const a of actions)
          a.transactions_full = a.transactions.map((h) => byHash.get(h)).filter((t): t is v3.Transaction => t !== undefined);
        addresses.push(...Object.keys(full.address_book));
      }
      return { status: 200, body: { actions, address_book: await addressBook(db, addresses, testnet), metadata: {} } };
    },
  };
}
