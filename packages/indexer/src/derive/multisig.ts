import { Address } from '@ton/core';
import { MULTISIG_METHODS, readMultisigData, readMultisigOrderData } from '@tongate/contracts';
import type { MultisigOrdersTable, MultisigTable } from '@tongate/store';
import type { Insertable } from 'kysely';
import { rawAddress } from '@tongate/read-model';
import { activeMethodIds, newestStates } from './account-methods.js';
import type { BlockDerivation } from './index.js';

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

export function multisigDerivation(): BlockDerivation<MultisigChanges> {
  return {
    name: 'multisig',
    async prepare(batch, _db, { chain }) {
      const changes: MultisigChanges = { wallets: [], orders: [], others: [] };
      const call = async (address: Address, method: string, stack: import('@ton/core').TupleItem[] = []) => {
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
