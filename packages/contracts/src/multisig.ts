import { Cell, Dictionary, loadMessageRelaxed, TupleReader, type Address, type TupleItem } from '@ton/core';
import { methodId } from './get-method.js';

/**
 * Multisig v2 wallets and orders (`/api/v3/multisig/*`), read through their get-methods as the reference indexer
 * does: a wallet is a contract defining `get_multisig_data` and `get_order_address`; an order defines
 * `get_order_data` and is genuine when its multisig's `get_order_address(order_seqno)` is its own address.
 * Signer and proposer lists are `Hashmap 8 MsgAddressInt` (index → address); an order's actions are a
 * `HashmapE 8 ^Action` with `send_message#f1381e5b mode:uint8 message:^MessageRelaxed` and
 * `update_multisig_params#1d0cfbd3`.
 */

export const MULTISIG_METHODS = {
  data: methodId('get_multisig_data'),
  orderAddress: methodId('get_order_address'),
  orderData: methodId('get_order_data'),
} as const;

export interface MultisigData {
  nextOrderSeqno: bigint;
  threshold: number;
  signers: Address[];
  proposers: Address[];
}

export interface MultisigOrderData {
  multisig: Address;
  orderSeqno: bigint;
  threshold: number;
  sentForExecution: boolean;
  signers: Address[];
  approvalsMask: bigint;
  approvalsNum: number;
  expirationDate: number;
  /** The actions dictionary; null before the order is initialised. */
  order: Cell | null;
}

/** The addresses of a `Hashmap 8 MsgAddressInt` in index order (the index is the signer's number). */
function indexedAddresses(cell: Cell | null): Address[] {
  if (!cell) return [];
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), cell);
  return [...dict].sort(([a], [b]) => a - b).map(([, address]) => address);
}

/** `get_multisig_data` → (next_order_seqno, threshold, signers, proposers); null for another shape. */
export function readMultisigData(stack: TupleItem[]): MultisigData | null {
  if (stack.length !== 4) return null;
  try {
    const r = new TupleReader(stack);
    const nextOrderSeqno = r.readBigNumber();
    const threshold = r.readNumber();
    const signers = indexedAddresses(r.readCellOpt());
    const proposers = indexedAddresses(r.readCellOpt());
    if (nextOrderSeqno < 0n || threshold < 0 || threshold > 255) return null;
    return { nextOrderSeqno, threshold, signers, proposers };
  } catch {
    return null;
  }
}

/** `get_order_data` → the nine values of an order; null for another shape. */
export function readMultisigOrderData(stack: TupleItem[]): MultisigOrderData | null {
  if (stack.length !== 9) return null;
  try {
    const r = new TupleReader(stack);
    const multisig = r.readAddress();
    const orderSeqno = r.readBigNumber();
    const threshold = r.readNumber();
    const sentForExecution = r.readBigNumber() !== 0n;
    const signers = indexedAddresses(r.readCellOpt());
    const approvalsMask = r.readBigNumber();
    const approvalsNum = r.readNumber();
    const expirationDate = r.readNumber();
    const order = r.readCellOpt();
    if (orderSeqno < 0n || approvalsMask < 0n) return null;
    return { multisig, orderSeqno, threshold, sentForExecution, signers, approvalsMask, approvalsNum, expirationDate, order };
  } catch {
    return null;
  }
}

export type MultisigAction =
  | { type: 'send_message'; mode: number; destination: Address | null; value: bigint | null; body: Cell }
  | { type: 'update_multisig_params' }
  | { type: 'unknown'; error: string };

export const MULTISIG_ACTION_TAGS = { sendMessage: 0xf1381e5b, updateParams: 0x1d0cfbd3 } as const;

/** An order's actions in index order; an action that does not decode is kept as `unknown` with the reason. */
export function decodeMultisigOrderActions(order: Cell): MultisigAction[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Cell(), order);
  return [...dict]
    .sort(([a], [b]) => a - b)
    .map(([, action]): MultisigAction => {
      try {
        const s = action.beginParse();
        const tag = s.loadUint(32);
        if (tag === MULTISIG_ACTION_TAGS.updateParams) return { type: 'update_multisig_params' };
        if (tag !== MULTISIG_ACTION_TAGS.sendMessage)
          return { type: 'unknown', error: `unknown action tag 0x${tag.toString(16).padStart(8, '0')}` };
        const mode = s.loadUint(8);
        const message = loadMessageRelaxed(s.loadRef().beginParse());
        const internal = message.info.type === 'internal' ? message.info : null;
        return {
          type: 'send_message',
          mode,
          destination: internal?.dest ?? null,
          value: internal?.value.coins ?? null,
          body: message.body,
        };
      } catch (e) {
        return { type: 'unknown', error: `action does not decode: ${(e as Error).message}` };
      }
    });
}
