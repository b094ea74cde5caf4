import { textCommentBytes, transactionMessageCells, type ChainTransaction } from '@tongate/chain';
import { Address, beginCell, Cell, type Message, storeMessage, storeStateInit } from '@ton/core';
import { b64, bocB64, cellDataBytes, extraCurrenciesOf, formatExtraCurrencies, friendly, rawLower, rawUpper } from './format.js';

/**
 * Transactions and messages in the tonlib JSON shapes: `ext.*` (getTransactions, tryLocate*: plain string
 * addresses, decoded `message`) and `raw.*` (getTransactionsStd, getBlockTransactionsExt: accountAddress objects).
 */

export interface FormatOptions {
  /** Set the testnet flag in user-friendly addresses. */
  testOnly: boolean;
}

function accountString(address: Address | null | undefined, opts: FormatOptions): string {
  // External (addr_extern) and absent addresses have no user-friendly form; tonlib answers "".
  if (!address || !Address.isAddress(address)) return '';
  return friendly(address, opts.testOnly);
}

function msgData(message: Message) {
  const text = textCommentBytes(message.body);
  if (text) return { data: { '@type': 'msg.dataText' as const, text: b64(text) }, message: text.toString('utf-8') };
  const init = message.init ? bocB64(beginCell().store(storeStateInit(message.init)).endCell()) : '';
  const bodyBits = cellDataBytes(message.body);
  return {
    data: { '@type': 'msg.dataRaw' as const, body: bocB64(message.body), init_state: init },
    // Legacy clients read the body root's data bits here, with a trailing newline when non-empty.
    message: bodyBits.length > 0 ? `${bodyBits.toString('base64')}\n` : '',
  };
}

interface MessageCore {
  hash: string;
  value: string;
  extra_currencies: ReturnType<typeof formatExtraCurrencies>;
  fwd_fee: string;
  ihr_fee: string;
  created_lt: string;
  body_hash: string;
}

function messageCore(message: Message, cell: Cell | undefined): MessageCore {
  const info = message.info;
  const internal = info.type === 'internal' ? info : null;
  return {
    hash: b64((cell ?? messageCell(message)).hash()),
    value: (internal?.value.coins ?? 0n).toString(),
    extra_currencies: formatExtraCurrencies(extraCurrenciesOf(internal?.value.other)),
    fwd_fee: (internal?.forwardFee ?? 0n).toString(),
    ihr_fee: (internal?.ihrFee ?? 0n).toString(),
    created_lt: (info.type === 'external-in' ? 0n : info.createdLt).toString(),
    body_hash: b64(message.body.hash()),
  };
}

/** Rebuilt only when the original cell is unavailable; the transaction cell normally provides it. */
function messageCell(message: Message): Cell {
  return beginCell().store(storeMessage(message)).endCell();
}

function endpoints(message: Message): { src: Address | null; dest: Address | null } {
  const info = message.info;
  if (info.type === 'internal') return { src: info.src, dest: info.dest };
  if (info.type === 'external-in') return { src: null, dest: info.dest };
  return { src: info.src, dest: null };
}

export function formatExtMessage(message: Message, cell: Cell | undefined, opts: FormatOptions) {
  const { src, dest } = endpoints(message);
  const { data, message: text } = msgData(message);
  return {
    '@type': 'ext.message' as const,
    ...messageCore(message, cell),
    source: accountString(src, opts),
    destination: accountString(dest, opts),
    msg_data: data,
    message: text,
  };
}

export function formatRawMessage(message: Message, cell: Cell | undefined, opts: FormatOptions) {
  const { src, dest } = endpoints(message);
  return {
    '@type': 'raw.message' as const,
    ...messageCore(message, cell),
    source: { '@type': 'accountAddress' as const, account_address: accountString(src, opts) },
    destination: { '@type': 'accountAddress' as const, account_address: accountString(dest, opts) },
    msg_data: msgData(message).data,
  };
}

function fees(tx: ChainTransaction) {
  const total = tx.tx.totalFees.coins;
  const d = tx.tx.description;
  const storage = 'storagePhase' in d && d.storagePhase ? d.storagePhase.storageFeesCollected : 0n;
  return { fee: total.toString(), storage_fee: storage.toString(), other_fee: (total - storage).toString() };
}

function transactionCommon(tx: ChainTransaction, opts: FormatOptions) {
  return {
    address: { '@type': 'accountAddress' as const, account_address: accountString(tx.address, opts) },
    utime: tx.tx.now,
    data: bocB64(tx.cell),
    transaction_id: { '@type': 'internal.transactionId' as const, lt: tx.lt.toString(), hash: b64(tx.hash) },
    ...fees(tx),
  };
}

function sortedOutMessages(tx: ChainTransaction): Message[] {
  return [...tx.tx.outMessages.keys()].sort((a, b) => a - b).map((k) => tx.tx.outMessages.get(k)!);
}

type TransactionShape = 'ext' | 'raw' | 'blockExt';

/**
 * Formatted transactions by ChainTransaction object, per shape and network flag. A transaction never changes and
 * backends reuse the same object for hot history, so a repeated read skips re-encoding its cells and messages.
 * Results are shared: callers serialize them and never modify them.
 */
const formattedMemo = new WeakMap<ChainTransaction, Map<string, unknown>>();

function memoized<T>(tx: ChainTransaction, shape: TransactionShape, opts: FormatOptions, format: () => T): T {
  let byKey = formattedMemo.get(tx);
  if (!byKey) formattedMemo.set(tx, (byKey = new Map()));
  const key = `${shape}:${opts.testOnly ? 't' : 'm'}`;
  let formatted = byKey.get(key) as T | undefined;
  if (formatted === undefined) byKey.set(key, (formatted = format()));
  return formatted;
}

/** `ext.transaction`: getTransactions and tryLocate*. `in_msg` is omitted (never null) when there is none. */
export function formatExtTransaction(tx: ChainTransaction, opts: FormatOptions) {
  return memoized(tx, 'ext', opts, () => formatExtTransactionOnce(tx, opts));
}

function formatExtTransactionOnce(tx: ChainTransaction, opts: FormatOptions) {
  const cells = transactionMessageCells(tx.cell);
  const inMsg = tx.tx.inMessage;
  return {
    '@type': 'ext.transaction' as const,
    account: rawUpper(tx.address),
    ...transactionCommon(tx, opts),
    ...(inMsg ? { in_msg: formatExtMessage(inMsg, cells.inMsg, opts) } : {}),
    out_msgs: sortedOutMessages(tx).map((m, i) => formatExtMessage(m, cells.outMsgs[i], opts)),
  };
}

/** `raw.transaction`: getTransactionsStd. */
export function formatRawTransaction(tx: ChainTransaction, opts: FormatOptions) {
  return memoized(tx, 'raw', opts, () => formatRawTransactionOnce(tx, opts));
}

function formatRawTransactionOnce(tx: ChainTransaction, opts: FormatOptions) {
  const cells = transactionMessageCells(tx.cell);
  const inMsg = tx.tx.inMessage;
  return {
    '@type': 'raw.transaction' as const,
    ...transactionCommon(tx, opts),
    ...(inMsg ? { in_msg: formatRawMessage(inMsg, cells.inMsg, opts) } : {}),
    out_msgs: sortedOutMessages(tx).map((m, i) => formatRawMessage(m, cells.outMsgs[i], opts)),
  };
}

/** getBlockTransactionsExt entries: the raw transaction plus its account id as `wc:hex`. */
export function formatBlockTransactionExt(tx: ChainTransaction, opts: FormatOptions) {
  return memoized(tx, 'blockExt', opts, () => ({
    ...formatRawTransaction(tx, opts),
    '@type': 'raw.transactionExt' as const,
    account: rawLower(tx.address.workChain, tx.address.hash),
  }));
}
