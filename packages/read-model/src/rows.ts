import {
  normalizedExternalMessageHash,
  textCommentBytes,
  transactionMessageCells,
  type AccountState,
  type ChainTransaction,
} from '@tongate/chain';
import type { AccountStatesTable, LatestAccountStatesTable, MessagesTable, TransactionsTable } from '@tongate/store';
import {
  beginCell,
  storeStateInit,
  type Cell,
  type CurrencyCollection,
  type Dictionary,
  type Message,
  type Transaction,
  type TransactionActionPhase,
  type TransactionComputePhase,
  type TransactionStoragePhase,
} from '@ton/core';
import type { Insertable } from 'kysely';
import { codeMethodIds } from '@tongate/contracts';
import { rawAddress } from './address.js';

/**
 * Chain objects → rows of the chain tables. Values take their wire form here (raw upper-case addresses, base64
 * hashes, decimal strings), once, at ingest; the API reads them back without converting.
 */

export type TransactionRow = Insertable<TransactionsTable>;
/**
 * A message row; `decoded_comment` is not a column: the text of a comment body (opcode 0), decoded here from the
 * cell while it is at hand, for the stored wire form (undefined: not decoded here, the formatter reads the BOC).
 */
export type MessageRow = Insertable<MessagesTable> & { decoded_comment?: string | null };
export type AccountStateRow = Insertable<AccountStatesTable>;
export type LatestAccountStateRow = Insertable<LatestAccountStatesTable>;
export interface ContentRow {
  hash: string;
  body: string;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');
const bigHash = (v: bigint) => b64(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));
const boc = (cell: Cell) => cell.toBoc({ idx: false, crc32: true }).toString('base64');

const STATUS: Record<Transaction['oldStatus'], string> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};
const CHAIN_STATUS: Record<AccountState['status'], string> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  nonexist: 'nonexist',
};
const DESCR_TYPE: Record<Transaction['description']['type'], string> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};
const SKIP_REASON = { 'no-state': 'no_state', 'bad-state': 'bad_state', 'no-gas': 'no_gas' } as const;
const BOUNCE = { 'negative-funds': 'negfunds', 'no-funds': 'nofunds', ok: 'ok' } as const;

export function extraCurrencies(other: Dictionary<number, bigint> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (other) for (const [id, amount] of other) out[String(id)] = amount.toString();
  return out;
}

function storagePhase(p: TransactionStoragePhase) {
  return {
    storage_fees_collected: p.storageFeesCollected.toString(),
    storage_fees_due: p.storageFeesDue == null ? null : p.storageFeesDue.toString(),
    status_change: p.statusChange,
  };
}

function computePhase(p: TransactionComputePhase) {
  if (p.type === 'skipped') return { skipped: true, reason: SKIP_REASON[p.reason] };
  return {
    skipped: false,
    success: p.success,
    msg_state_used: p.messageStateUsed,
    account_activated: p.accountActivated,
    gas_fees: p.gasFees.toString(),
    gas_used: p.gasUsed.toString(),
    gas_limit: p.gasLimit.toString(),
    gas_credit: p.gasCredit == null ? null : p.gasCredit.toString(),
    mode: p.mode,
    exit_code: p.exitCode,
    exit_arg: p.exitArg ?? null,
    vm_steps: p.vmSteps,
    vm_init_state_hash: bigHash(p.vmInitStateHash),
    vm_final_state_hash: bigHash(p.vmFinalStateHash),
  };
}

function actionPhase(p: TransactionActionPhase) {
  return {
    success: p.success,
    valid: p.valid,
    no_funds: p.noFunds,
    status_change: p.statusChange,
    total_fwd_fees: p.totalFwdFees == null ? null : p.totalFwdFees.toString(),
    total_action_fees: p.totalActionFees == null ? null : p.totalActionFees.toString(),
    result_code: p.resultCode,
    result_arg: p.resultArg ?? null,
    tot_actions: p.totalActions,
    spec_actions: p.specActions,
    skipped_actions: p.skippedActions,
    msgs_created: p.messagesCreated,
    action_list_hash: bigHash(p.actionListHash),
    tot_msg_size: { cells: p.totalMessageSize.cells.toString(), bits: p.totalMessageSize.bits.toString() },
  };
}

/** The transaction description in its v3 wire shape; a phase that did not run is absent. */
export function describeTransaction(tx: Transaction): Record<string, unknown> {
  const d = tx.description;
  const out: Record<string, unknown> = { type: DESCR_TYPE[d.type] };
  if ('creditFirst' in d) out.credit_first = d.creditFirst;
  if ('aborted' in d) out.aborted = d.aborted;
  if ('destroyed' in d) out.destroyed = d.destroyed;
  if ('isTock' in d) out.is_tock = d.isTock;
  if ('installed' in d) out.installed = d.installed;
  if ('storagePhase' in d && d.storagePhase) out.storage_ph = storagePhase(d.storagePhase);
  if ('creditPhase' in d && d.creditPhase) {
    out.credit_ph = {
      due_fees_collected: d.creditPhase.dueFeesColelcted == null ? null : d.creditPhase.dueFeesColelcted.toString(),
      credit: d.creditPhase.credit.coins.toString(),
      credit_extra_currencies: extraCurrencies(d.creditPhase.credit.other),
    };
  }
  if ('computePhase' in d && d.computePhase) out.compute_ph = computePhase(d.computePhase);
  if ('actionPhase' in d && d.actionPhase) out.action = actionPhase(d.actionPhase);
  if ('bouncePhase' in d && d.bouncePhase) {
    const b = d.bouncePhase;
    out.bounce = {
      type: BOUNCE[b.type],
      ...(b.type !== 'negative-funds' ? { msg_size: { cells: b.messageSize.cells.toString(), bits: b.messageSize.bits.toString() } } : {}),
      ...(b.type === 'no-funds' ? { req_fwd_fees: b.requiredForwardFees.toString() } : {}),
      ...(b.type === 'ok' ? { msg_fees: b.messageFees.toString(), fwd_fees: b.forwardFees.toString() } : {}),
    };
  }
  if ('splitInfo' in d) {
    out.split_info = {
      cur_shard_pfx_len: d.splitInfo.currentShardPrefixLength,
      acc_split_depth: d.splitInfo.accountSplitDepth,
      this_addr: d.splitInfo.thisAddress.toString(),
      sibling_addr: d.splitInfo.siblingAddress.toString(),
    };
  }
  return out;
}

function coins(value: CurrencyCollection) {
  return { value: value.coins.toString(), value_extra_currencies: JSON.stringify(extraCurrencies(value.other)) };
}

/** The columns a kind of message may not have (external messages carry no value, fees or bounce flags). */
const ABSENT = {
  msg_hash_norm: null,
  source: null,
  destination: null,
  value: null,
  value_extra_currencies: null,
  fwd_fee: null,
  ihr_fee: null,
  extra_flags: null,
  import_fee: null,
  created_lt: null,
  created_at: null,
  ihr_disabled: null,
  bounce: null,
  bounced: null,
} as const;

interface MessageContext {
  tx: ChainTransaction;
  account: string;
  mcSeqno: number;
}

function messageRow(
  message: Message,
  cell: Cell,
  direction: 'in' | 'out',
  outIndex: number,
  ctx: MessageContext,
  contents: Map<string, string>,
): MessageRow {
  const info = message.info;
  const bodyHash = b64(message.body.hash());
  if (!contents.has(bodyHash)) contents.set(bodyHash, boc(message.body));
  let initStateHash: string | null = null;
  if (message.init) {
    const initCell = beginCell().store(storeStateInit(message.init)).endCell();
    initStateHash = b64(initCell.hash());
    if (!contents.has(initStateHash)) contents.set(initStateHash, boc(initCell));
  }
  const body = message.body.beginParse();
  const opcode = body.remainingBits >= 32 ? body.preloadInt(32) : null;
  const comment = opcode === 0 ? textCommentBytes(message.body) : null;
  const base = {
    tx_hash: b64(ctx.tx.hash),
    tx_lt: ctx.tx.lt,
    tx_account: ctx.account,
    direction,
    out_index: outIndex,
    mc_seqno: ctx.mcSeqno,
    msg_hash: b64(cell.hash()),
    opcode,
    body_hash: bodyHash,
    init_state_hash: initStateHash,
    ...(opcode === 0 ? { decoded_comment: comment ? comment.toString('utf-8') : null } : {}),
  };
  if (info.type === 'internal') {
    return {
      ...base,
      ...ABSENT,
      source: rawAddress(info.src.workChain, info.src.hash),
      destination: rawAddress(info.dest.workChain, info.dest.hash),
      ...coins(info.value),
      fwd_fee: info.forwardFee,
      ihr_fee: info.ihrFee,
      created_lt: info.createdLt,
      created_at: info.createdAt,
      order_lt: info.createdLt,
      order_utime: info.createdAt,
      ihr_disabled: info.ihrDisabled,
      bounce: info.bounce,
      bounced: info.bounced,
    };
  }
  if (info.type === 'external-in') {
    return {
      ...base,
      ...ABSENT,
      msg_hash_norm: b64(normalizedExternalMessageHash(message)),
      destination: rawAddress(info.dest.workChain, info.dest.hash),
      import_fee: info.importFee,
      // An external-in message has no creation lt or time: it is ordered by the transaction that received it.
      order_lt: ctx.tx.lt,
      order_utime: ctx.tx.tx.now,
    };
  }
  return {
    ...base,
    ...ABSENT,
    source: rawAddress(info.src.workChain, info.src.hash),
    created_lt: info.createdLt,
    created_at: info.createdAt,
    order_lt: info.createdLt,
    order_utime: info.createdAt,
  };
}

export interface TransactionRows {
  transaction: TransactionRow;
  messages: MessageRow[];
}

/** One transaction's row and its message rows; bodies and init states go into `contents` (hash → BOC). */
export function transactionRows(tx: ChainTransaction, mcSeqno: number, contents: Map<string, string>): TransactionRows {
  const t = tx.tx;
  const account = rawAddress(tx.address.workChain, tx.address.hash);
  const ctx: MessageContext = { tx, account, mcSeqno };
  const cells = transactionMessageCells(tx.cell);
  const messages: MessageRow[] = [];
  let inMsgHash: string | null = null;
  if (t.inMessage && cells.inMsg) {
    const row = messageRow(t.inMessage, cells.inMsg, 'in', 0, ctx, contents);
    inMsgHash = row.msg_hash;
    messages.push(row);
  }
  const outKeys = [...t.outMessages.keys()].sort((a, b) => a - b);
  outKeys.forEach((key, i) => messages.push(messageRow(t.outMessages.get(key)!, cells.outMsgs[i]!, 'out', i, ctx, contents)));
  const description = describeTransaction(t);
  return {
    transaction: {
      account,
      hash: b64(tx.hash),
      lt: tx.lt,
      now: t.now,
      block_workchain: tx.block.workchain,
      block_shard: tx.block.shard,
      block_seqno: tx.block.seqno,
      mc_block_seqno: mcSeqno,
      prev_trans_hash: bigHash(t.prevTransactionHash),
      prev_trans_lt: t.prevTransactionLt,
      orig_status: STATUS[t.oldStatus],
      end_status: STATUS[t.endStatus],
      total_fees: t.totalFees.coins,
      total_fees_extra_currencies: JSON.stringify(extraCurrencies(t.totalFees.other)),
      account_state_hash_before: b64(t.stateUpdate.oldHash),
      account_state_hash_after: b64(t.stateUpdate.newHash),
      descr: description.type as string,
      aborted: description.aborted === true,
      description: JSON.stringify(description),
      in_msg_hash: inMsgHash,
    },
    messages,
  };
}

/** Method ids by code hash: few distinct codes serve most accounts, and parsing the dictionary is not free. */
const methodIdsByCode = new Map<string, string>();

function methodIdsOf(code: Cell): string {
  const key = code.hash().toString('hex');
  let ids = methodIdsByCode.get(key);
  if (ids === undefined) {
    if (methodIdsByCode.size >= 10_000) methodIdsByCode.clear();
    ids = JSON.stringify([...codeMethodIds(code)].sort((a, b) => a - b));
    methodIdsByCode.set(key, ids);
  }
  return ids;
}

/** Hash of `account_none$0`: the state hash of an account that does not exist. */
const NONEXIST_STATE_HASH = b64(beginCell().storeBit(false).endCell().hash());

/** An account's state at a masterchain block: its account_states row and its latest_account_states row. */
export function accountStateRows(state: AccountState, mcSeqno: number): { state: AccountStateRow; latest: LatestAccountStateRow } {
  const account = rawAddress(state.address.workChain, state.address.hash);
  // ShardAccount = account:^Account last_trans_hash last_trans_lt: the Account cell's hash is the state hash that
  // transactions name in their state update.
  const hash = state.shardAccount && state.shardAccount.refs[0] ? b64(state.shardAccount.refs[0].hash()) : NONEXIST_STATE_HASH;
  const common = {
    account,
    hash,
    balance: state.balance,
    extra_currencies: JSON.stringify(Object.fromEntries(state.extraCurrencies.map((ec) => [String(ec.id), ec.amount.toString()]))),
    account_status: CHAIN_STATUS[state.status],
    frozen_hash: state.frozenHash ? b64(state.frozenHash) : null,
    data_hash: state.data ? b64(state.data.hash()) : null,
    code_hash: state.code ? b64(state.code.hash()) : null,
  };
  return {
    state: common,
    latest: {
      ...common,
      data_boc: state.data ? boc(state.data) : null,
      code_boc: state.code ? boc(state.code) : null,
      contract_methods: state.code ? methodIdsOf(state.code) : null,
      last_trans_hash: state.lastTransaction ? b64(state.lastTransaction.hash) : null,
      last_trans_lt: state.lastTransaction ? state.lastTransaction.lt : null,
      timestamp: state.syncUtime,
      mc_seqno: mcSeqno,
    },
  };
}
