import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, SerializedJson, type V3Handlers } from '@tongate/stubs';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import {
  decimal,
  page,
  rawAddresses,
  storedHash,
  storedTransactionsReply,
  transactionsReply,
  window,
  type TxOrder,
  type TxRow,
} from '@tongate/read-model';
import { requireMcBlock } from './blocks.js';

export type TransactionOperations = Pick<
  V3Handlers,
  'getTransactions' | 'getTransactionsByMasterchainBlock' | 'getTransactionsByMessage' | 'getAdjacentTransactions'
>;

type TxQuery = SelectQueryBuilder<ChainDatabase, 'transactions', TxRow>;

/** Total order of transaction lists (docs/wire.md): (lt, account), or (now, lt, account) with a time bound. */
function ordered(q: TxQuery, sort: 'asc' | 'desc', byTime: boolean): TxQuery {
  if (byTime) q = q.orderBy('now', sort);
  return q.orderBy('lt', sort).orderBy('account', sort);
}

export function transactionOperations(db: Kysely<ChainDatabase>, testnet: boolean): TransactionOperations {
  // The stored wire forms when every row of the page has one (one statement, no re-serialization), else the joins.
  const reply = async (q: TxQuery, order: TxOrder) => {
    const text = await storedTransactionsReply(db, q, order, testnet);
    return {
      status: 200 as const,
      body: text === null ? await transactionsReply(db, q, order, testnet) : SerializedJson.as<v3.TransactionsResponse>(text),
    };
  };

  return {
    async getTransactions({ query }) {
      const { limit, offset, sort } = page(query);
      const accounts = rawAddresses(query.account);
      const excluded = rawAddresses(query.exclude_account);
      const hash = storedHash(query.hash);
      const shard = decimal(query.shard);
      const lt = decimal(query.lt);
      const { startLt, endLt, startUtime, endUtime, byTime } = window(query);
      if (query.mc_seqno !== undefined) await requireMcBlock(db, query.mc_seqno);
      let q: TxQuery = db.selectFrom('transactions').selectAll();
      if (query.workchain !== undefined) q = q.where('block_workchain', '=', query.workchain);
      if (shard !== undefined) q = q.where('block_shard', '=', shard);
      if (query.seqno !== undefined) q = q.where('block_seqno', '=', query.seqno);
      if (query.mc_seqno !== undefined) q = q.where('mc_block_seqno', '=', query.mc_seqno);
      if (accounts.length > 0) q = q.where('account', 'in', accounts);
      if (excluded.length > 0) q = q.where('account', 'not in', excluded);
      if (hash) q = q.where('hash', '=', hash);
      if (lt !== undefined) q = q.where('lt', '=', lt);
      if (startUtime !== undefined) q = q.where('now', '>=', startUtime);
      if (endUtime !== undefined) q = q.where('now', '<=', endUtime);
      if (startLt !== undefined) q = q.where('lt', '>=', startLt);
      if (endLt !== undefined) q = q.where('lt', '<=', endLt);
      return reply(ordered(q, sort, byTime).limit(limit).offset(offset), { sort, byTime });
    },

    async getTransactionsByMasterchainBlock({ query }) {
      const { limit, offset, sort } = page(query);
      await requireMcBlock(db, query.seqno);
      const q = db.selectFrom('transactions').selectAll().where('mc_block_seqno', '=', query.seqno);
      return reply(ordered(q, sort, false).limit(limit).offset(offset), { sort, byTime: false });
    },

    async getTransactionsByMessage({ query }) {
      const { limit, offset } = page(query);
      const msgHash = storedHash(query.msg_hash);
      const bodyHash = storedHash(query.body_hash);
      const opcode = query.opcode;
      if (!msgHash && !bodyHash && opcode === undefined)
        throw new ApiError(422, 'at least one of msg_hash, body_hash, opcode must be given');
      if (opcode !== undefined && query.direction === 'out')
        throw new ApiError(422, 'opcode selects receiving transactions: direction must be in or omitted');
      const direction = opcode !== undefined ? 'in' : query.direction;
      const q = db
        .selectFrom('transactions')
        .selectAll()
        .where('hash', 'in', (eb) => {
          let m = eb.selectFrom('messages').select('tx_hash');
          if (msgHash) m = m.where((w) => w.or([w('msg_hash', '=', msgHash), w('msg_hash_norm', '=', msgHash)]));
          if (bodyHash) m = m.where('body_hash', '=', bodyHash);
          if (opcode !== undefined) m = m.where('opcode', '=', opcode);
          if (direction) m = m.where('direction', '=', direction);
          return m;
        });
      return reply(ordered(q, 'desc', false).limit(limit).offset(offset), { sort: 'desc', byTime: false });
    },

    async getAdjacentTransactions({ query }) {
      const hash = storedHash(query.hash);
      const tx = await db.selectFrom('transactions').select(['hash']).where('hash', '=', hash).executeTakeFirst();
      if (!tx) throw new ApiError(404, 'transaction not found');
      // in: the sender of this transaction's inbound message; out: the receivers of its outbound messages.
      const linked = (direction: 'in' | 'out') =>
        db
          .selectFrom('messages as mine')
          .innerJoin('messages as other', (j) =>
            j.onRef('other.msg_hash', '=', 'mine.msg_hash').on('other.direction', '=', direction === 'in' ? 'out' : 'in'),
          )
          .select('other.tx_hash')
          .where('mine.tx_hash', '=', hash)
          .where('mine.direction', '=', direction);
      const directions: ('in' | 'out')[] = query.direction ? [query.direction] : ['in', 'out'];
      const hashes = (await Promise.all(directions.map((d) => linked(d).execute()))).flat().map((r) => r.tx_hash);
      if (hashes.length === 0) return { status: 200, body: { transactions: [], address_book: {} } };
      return reply(db.selectFrom('transactions').selectAll().where('hash', 'in', hashes), { sort: 'asc', byTime: false });
    },
  };
}
