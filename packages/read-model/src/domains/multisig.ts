/**
 * The multisig domain: multisig v2 wallets and their orders (`GET /api/v3/multisig/wallets`, `/multisig/orders`),
 * their tables, the derivation that fills them and the operations that read them.
 */
import { Address, Cell, type TupleItem } from '@ton/core';
import { decodeMultisigOrderActions, MULTISIG_METHODS, readMultisigData, readMultisigOrderData } from '@tongate/contracts';
import type { v3 } from '@tongate/sdk';
import type { DomainMigrations } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { decodeMessageBody } from '@tongate/tlb';
import { sql, type ColumnType, type Generated, type Insertable, type Kysely, type Selectable } from 'kysely';
import { rawAddress } from '../address.js';
import { addressBook } from '../address-book.js';
import { activeMethodIds, newestStates, type BlockDerivation } from '../block.js';
import { indexDomain, type IndexTables } from '../index-domain.js';
import { page, rawAddresses } from '../params.js';

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Json<T> = ColumnType<T, string, string>;

/**
 * Multisig v2 wallets and their orders (`/multisig/*`), as of each contract's newest state (multisigDerivation
 * reads them with their get-methods). Addresses are raw `wc:HEX` upper case.
 */
export interface MultisigTable {
  /** Order of first sight, the order of /multisig/wallets. */
  id: Generated<string>;
  address: string;
  next_order_seqno: Int64;
  threshold: number;
  /** Signer addresses in index order. */
  signers: Json<string[]>;
  proposers: Json<string[]>;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

/** Who may act on each multisig: the wallet_address filter of /multisig/wallets. */
export interface MultisigParticipantsTable {
  multisig_address: string;
  wallet_address: string;
  role: 'signer' | 'proposer';
}

export interface MultisigOrdersTable {
  id: Generated<string>;
  address: string;
  multisig_address: string;
  order_seqno: Int64;
  threshold: number;
  sent_for_execution: boolean;
  approvals_mask: Int64;
  approvals_num: number;
  expiration_date: Int64;
  /** Base64 BOC of the order's actions dictionary; null before the order is initialised. */
  order_boc: string | null;
  signers: Json<string[]>;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

export interface MultisigTables {
  multisig: MultisigTable;
  multisig_participants: MultisigParticipantsTable;
  multisig_orders: MultisigOrdersTable;
}

export const multisigMigrations: DomainMigrations = (run) => ({
  '0360_multisig': {
    async up(db) {
      await run(db, [
        `create table $S.multisig (
          id bigint generated always as identity unique, address text primary key, next_order_seqno numeric not null,
          threshold integer not null, signers jsonb not null, proposers jsonb not null, last_transaction_lt bigint not null,
          code_hash text not null, data_hash text not null)`,
        `create table $S.multisig_participants (
          multisig_address text not null, wallet_address text not null, role text not null,
          primary key (multisig_address, wallet_address, role))`,
        `create index multisig_participants_wallet on $S.multisig_participants (wallet_address, multisig_address)`,
        `create table $S.multisig_orders (
          id bigint generated always as identity unique, address text primary key, multisig_address text not null,
          order_seqno numeric not null, threshold integer not null, sent_for_execution boolean not null,
          approvals_mask numeric not null, approvals_num integer not null, expiration_date bigint not null, order_boc text,
          signers jsonb not null, last_transaction_lt bigint not null, code_hash text not null, data_hash text not null)`,
        `create index multisig_orders_multisig on $S.multisig_orders (multisig_address, id)`,
      ]);
    },
  },
});

/**
 * Multisig v2 wallets and orders (`multisig`, `multisig_participants`, `multisig_orders`) as of each contract's
 * newest state, read with their get-methods at the block (in `prepare`): a wallet defines `get_multisig_data` and
 * `get_order_address`; an order defines `get_order_data` and counts only when its multisig's
 * `get_order_address(order_seqno)` is the order's own address (a contract cannot pose as another multisig's order).
 * An account that was one and no longer answers so loses its rows.
 */

interface MultisigChanges {
  wallets: Insertable<MultisigTable>[];
  orders: Insertable<MultisigOrdersTable>[];
  others: string[];
}

const raw = (a: Address) => rawAddress(a.workChain, a.hash);
const OK = (exitCode: number) => exitCode === 0 || exitCode === 1;

export function multisigDerivation(): BlockDerivation<MultisigChanges, IndexTables<MultisigTables>> {
  return {
    name: 'multisig',
    async prepare(batch, _db, { chain }) {
      const changes: MultisigChanges = { wallets: [], orders: [], others: [] };
      const call = async (address: Address, method: string, stack: TupleItem[] = []) => {
        const r = await chain.runGetMethod(address, method, stack, batch.mcSeqno);
        return OK(r.exitCode) ? r.stack : null;
      };
      for (const state of newestStates(batch)) {
        const methods = activeMethodIds(state);
        const address = Address.parseRaw(state.account);
        const common = { last_transaction_lt: state.last_trans_lt ?? '0', code_hash: state.code_hash!, data_hash: state.data_hash! };
        if (methods.has(MULTISIG_METHODS.data) && methods.has(MULTISIG_METHODS.orderAddress)) {
          const stack = await call(address, 'get_multisig_data');
          const data = stack ? readMultisigData(stack) : null;
          if (data) {
            changes.wallets.push({
              address: state.account,
              next_order_seqno: data.nextOrderSeqno,
              threshold: data.threshold,
              signers: JSON.stringify(data.signers.map(raw)),
              proposers: JSON.stringify(data.proposers.map(raw)),
              ...common,
            });
            continue;
          }
        }
        if (methods.has(MULTISIG_METHODS.orderData)) {
          const stack = await call(address, 'get_order_data');
          const order = stack ? readMultisigOrderData(stack) : null;
          const at = order ? await call(order.multisig, 'get_order_address', [{ type: 'int', value: order.orderSeqno }]) : null;
          const genuine = at?.[0]?.type === 'slice' && at[0].cell.beginParse().loadMaybeAddress()?.equals(address) === true;
          if (order && genuine) {
            changes.orders.push({
              address: state.account,
              multisig_address: raw(order.multisig),
              order_seqno: order.orderSeqno,
              threshold: order.threshold,
              sent_for_execution: order.sentForExecution,
              approvals_mask: order.approvalsMask,
              approvals_num: order.approvalsNum,
              expiration_date: order.expirationDate,
              order_boc: order.order ? order.order.toBoc().toString('base64') : null,
              signers: JSON.stringify(order.signers.map(raw)),
              ...common,
            });
            continue;
          }
        }
        changes.others.push(state.account);
      }
      return changes;
    },
    async write(trx, _batch, { wallets, orders, others }) {
      const gone = [...others, ...orders.map((o) => o.address)];
      for (let i = 0; i < gone.length; i += 1000) {
        const chunk = gone.slice(i, i + 1000);
        await trx.deleteFrom('multisig_participants').where('multisig_address', 'in', chunk).execute();
        await trx.deleteFrom('multisig').where('address', 'in', chunk).execute();
      }
      for (let i = 0; i < others.length; i += 1000)
        await trx
          .deleteFrom('multisig_orders')
          .where('address', 'in', others.slice(i, i + 1000))
          .execute();
      for (const wallet of wallets) {
        const { address, ...rest } = wallet;
        await trx
          .insertInto('multisig')
          .values(wallet)
          .onConflict((c) => c.column('address').doUpdateSet(rest))
          .execute();
        await trx.deleteFrom('multisig_orders').where('address', '=', address).execute();
        await trx.deleteFrom('multisig_participants').where('multisig_address', '=', address).execute();
        const participants = [
          ...(JSON.parse(wallet.signers) as string[]).map((w) => ({
            multisig_address: address,
            wallet_address: w,
            role: 'signer' as const,
          })),
          ...(JSON.parse(wallet.proposers) as string[]).map((w) => ({
            multisig_address: address,
            wallet_address: w,
            role: 'proposer' as const,
          })),
        ];
        if (participants.length > 0)
          await trx
            .insertInto('multisig_participants')
            .values(participants)
            .onConflict((c) => c.doNothing())
            .execute();
      }
      for (const order of orders) {
        const { address: _key, ...rest } = order;
        await trx
          .insertInto('multisig_orders')
          .values(order)
          .onConflict((c) => c.column('address').doUpdateSet(rest))
          .execute();
      }
    },
  };
}

export type MultisigOperations = Pick<V3Handlers, 'getMultisigWallets' | 'getMultisigOrders'>;

/** Orders embedded per wallet in /multisig/wallets (the newest): a wallet's orders grow without bound. */
export const ORDERS_PER_WALLET = 100;

/** An order's actions for parse_actions: each message's destination, value, mode and body, decoded when known. */
function orderActions(orderBoc: string | null): v3.MultisigOrderAction[] {
  if (!orderBoc) return [];
  let actions;
  try {
    actions = decodeMultisigOrderActions(Cell.fromBase64(orderBoc));
  } catch (e) {
    return [{ parsed: false, error: `the order's actions do not decode: ${(e as Error).message}` }];
  }
  return actions.map((a): v3.MultisigOrderAction => {
    if (a.type === 'unknown') return { parsed: false, error: a.error };
    if (a.type === 'update_multisig_params')
      return { parsed: true, parsed_body_type: 'update_multisig_params', parsed_body: null, error: null };
    const body = a.body.bits.length === 0 && a.body.refs.length === 0 ? null : a.body;
    const decoded = body ? decodeMessageBody(body) : null;
    return {
      destination: a.destination ? rawAddress(a.destination) : null,
      value: a.value?.toString() ?? null,
      send_mode: a.mode,
      body_raw: body ? body.toBoc().toString('base64') : null,
      parsed: true,
      parsed_body_type: decoded?.ok ? decoded.value.type : null,
      parsed_body: decoded?.ok ? decoded.value : null,
      error: null,
    };
  });
}

function orderOf(r: Selectable<MultisigOrdersTable>, parseActions: boolean): v3.MultisigOrder {
  return {
    address: r.address,
    multisig_address: r.multisig_address,
    order_seqno: r.order_seqno,
    threshold: r.threshold,
    sent_for_execution: r.sent_for_execution,
    approvals_mask: r.approvals_mask,
    approvals_num: r.approvals_num,
    expiration_date: Number(r.expiration_date),
    order_boc: r.order_boc,
    signers: r.signers,
    last_transaction_lt: r.last_transaction_lt,
    code_hash: r.code_hash,
    data_hash: r.data_hash,
    ...(parseActions ? { actions: orderActions(r.order_boc) } : {}),
  };
}

/** Multisig v2 wallets and orders from the multisig derivation's tables, in order of first sight. */
export function multisigOperations(db: Kysely<IndexTables<MultisigTables>>, testnet: boolean): MultisigOperations {
  return {
    async getMultisigWallets({ query }) {
      const { limit, offset, sort } = page(query);
      const addresses = rawAddresses(query.address);
      const wallets = rawAddresses(query.wallet_address);
      if (addresses.length === 0 && wallets.length === 0) throw new ApiError(422, 'address or wallet_address is required');
      let q = db.selectFrom('multisig').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (wallets.length > 0)
        q = q.where(
          'address',
          'in',
          db.selectFrom('multisig_participants').select('multisig_address').where('wallet_address', 'in', wallets),
        );
      const rows = await q.orderBy('id', sort).limit(limit).offset(offset).execute();
      const orders = new Map<string, v3.MultisigOrder[]>();
      if (query.include_orders !== false && rows.length > 0) {
        // One query for the page: each wallet's newest orders, ranked within the wallet.
        const ranked = db
          .selectFrom('multisig_orders')
          .selectAll()
          .select(sql<string>`row_number() over (partition by multisig_address order by id desc)`.as('rank'))
          .where(
            'multisig_address',
            'in',
            rows.map((r) => r.address),
          );
        const newest = await db
          .selectFrom(ranked.as('o'))
          .selectAll()
          .where('o.rank', '<=', String(ORDERS_PER_WALLET))
          .orderBy('o.id')
          .execute();
        for (const o of newest) orders.set(o.multisig_address, [...(orders.get(o.multisig_address) ?? []), orderOf(o, false)]);
      }
      const multisigs: v3.Multisig[] = rows.map((r) => ({
        address: r.address,
        next_order_seqno: r.next_order_seqno,
        threshold: r.threshold,
        signers: r.signers,
        proposers: r.proposers,
        last_transaction_lt: r.last_transaction_lt,
        code_hash: r.code_hash,
        data_hash: r.data_hash,
        ...(query.include_orders !== false ? { orders: orders.get(r.address) ?? [] } : {}),
      }));
      const mentioned = multisigs.flatMap((m) => [m.address, ...m.signers, ...m.proposers, ...(m.orders ?? []).map((o) => o.address)]);
      return { status: 200, body: { multisigs, address_book: await addressBook(db, mentioned, testnet) } };
    },

    async getMultisigOrders({ query }) {
      const { limit, offset, sort } = page(query);
      const addresses = rawAddresses(query.address);
      const multisigs = rawAddresses(query.multisig_address);
      let q = db.selectFrom('multisig_orders').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (multisigs.length > 0) q = q.where('multisig_address', 'in', multisigs);
      const rows = await q.orderBy('id', sort).limit(limit).offset(offset).execute();
      const orders = rows.map((r) => orderOf(r, query.parse_actions === true));
      const mentioned = orders.flatMap((o) => [
        o.address,
        o.multisig_address,
        ...o.signers,
        ...(o.actions ?? []).map((a) => a.destination),
      ]);
      return { status: 200, body: { orders, address_book: await addressBook(db, mentioned, testnet) } };
    },
  };
}

export const multisigDomain = indexDomain<MultisigTables>()({
  name: 'multisig',
  migrations: multisigMigrations,
  derivation: multisigDerivation,
  operations: multisigOperations,
});
