import { Cell } from '@ton/core';
import { decodeMultisigOrderActions } from '@tongate/contracts';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, MultisigOrdersTable } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { decodeMessageBody } from '@tongate/tlb';
import { sql, type Kysely, type Selectable } from 'kysely';
import { addressBook } from '@tongate/read-model';
import { page, rawAddress, rawAddresses } from '@tongate/read-model';

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
export function multisigOperations(db: Kysely<ChainDatabase>, testnet: boolean): MultisigOperations {
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
