import { expandSupportedActionTypes, toV3Action, visibleActions } from '@tongate/actions';
import { type ChainSource, type EmulatedTrace, isChainError, parseExternalMessage } from '@tongate/chain';
import { detectWallet, readWalletData } from '@tongate/contracts';
import { apiErrorOf } from '@tongate/domain';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type RequestContext, type V3Handlers, type V3Inputs } from '@tongate/stubs';
import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadStateInit,
  type MessageRelaxed,
  storeMessage,
  storeMessageRelaxed,
  SendMode,
  storeOutList,
  type OutAction,
} from '@ton/core';
import type { Kysely } from 'kysely';
import { actionTypeList } from '@tongate/read-model';
import { addressBook } from '@tongate/read-model';
import { tokenMetadata } from '@tongate/read-model';
import { pendingEntryOf } from '../pending/trace.js';

export type EmulateOperations = Pick<V3Handlers, 'emulateTrace' | 'emulateTonConnect'>;

export interface EmulateDeps {
  chain: ChainSource;
  /** The network's index, for address book and metadata; without it those two are refused. */
  index?: Kysely<ChainDatabase>;
  testnet: boolean;
  /** Emulation time per request (default EMULATION_TIME_MS). */
  timeMs?: number;
  /** Emulations one network runs at once (default MAX_CONCURRENT_EMULATIONS); past it requests get 429. */
  concurrency?: number;
}

/** Transactions one emulated trace holds at most (the hosted emulator's bound); the rest make it incomplete. */
export const MAX_TRACE_TRANSACTIONS = 256;
/** Time one request may emulate for (the hosted service's deadline); no transaction starts after it. */
export const EMULATION_TIME_MS = 3_000;
/**
 * Emulations per network at once. The devnet runs emulations in turn with block production, so each one may hold a
 * block back for at most its time bound: two at once keep that wait to a few seconds.
 */
export const MAX_CONCURRENT_EMULATIONS = 2;
/** Default life of a TON Connect request when `valid_until` is absent. */
const DEFAULT_VALIDITY_S = 300;
/** Send mode of a TON Connect transfer (3): pay fees separately, ignore errors. */
const TON_CONNECT_SEND_MODE = SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;

const ZERO_SEED = Buffer.alloc(32).toString('base64');
const ZERO_SIGNATURE = Buffer.alloc(64);

type Flags = Pick<
  V3Inputs['emulateTrace']['body'],
  'with_actions' | 'include_code_data' | 'include_address_book' | 'include_metadata' | 'mc_block_seqno'
>;

/** The action types a request sees: `X-Actions-Version` (its first value's set), else `fallback`. */
function supportedOf(ctx: RequestContext, fallback: string): Set<string> {
  const header = ctx.headers?.['x-actions-version'];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text) actionTypeList('X-Actions-Version', text.split(','));
  return expandSupportedActionTypes([fallback], text);
}

/** A base64 bag of cells with one root, or 422 naming the field. */
function oneCell(field: string, b64: string): Cell {
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(Buffer.from(b64, 'base64'));
  } catch (e) {
    throw new ApiError(422, `${field}: not a bag of cells (${(e as Error).message})`);
  }
  if (cells.length !== 1) throw new ApiError(422, `${field}: expected one root cell, got ${cells.length}`);
  return cells[0]!;
}

/** A timestamp in seconds from one that may be in milli-, micro- or nanoseconds (told apart by size). */
export function unixSeconds(value: bigint): number {
  let v = value;
  while (v > 100_000_000_000n) v /= 1000n;
  return Number(v);
}

/**
 * The external message a deployed wallet gets for a TON Connect request: its seqno and wallet id from its data, an
 * empty signature (the emulation lets the root's signature check pass), send mode 3.
 */
async function tonConnectMessage(chain: ChainSource, body: V3Inputs['emulateTonConnect']['body']): Promise<Cell> {
  const state = await chain.getAccountState(body.from, body.mc_block_seqno);
  if (state.status !== 'active' || !state.code || !state.data) throw new ApiError(409, 'from: account state has no code or no data');
  const kind = detectWallet(state.code);
  if (!kind) throw new ApiError(409, 'from: Account is not a known wallet');
  const supported =
    kind.name === 'wallet v3 r1' ||
    kind.name === 'wallet v3 r2' ||
    kind.name === 'wallet v4 r1' ||
    kind.name === 'wallet v4 r2' ||
    kind.name === 'wallet v5 r1';
  if (!supported) throw new ApiError(409, `from: Unsupported wallet type: ${kind.name}`);
  const data = readWalletData(kind, state.data);
  if (!data || data.walletId === undefined) throw new ApiError(409, 'from: the wallet data cannot be read');

  const messages: MessageRelaxed[] = body.messages.map((m, i) => {
    let to: Address;
    let bounce = true;
    try {
      if (Address.isFriendly(m.address)) {
        const parsed = Address.parseFriendly(m.address);
        to = parsed.address;
        bounce = parsed.isBounceable;
      } else {
        to = Address.parseRaw(m.address);
      }
    } catch (e) {
      throw new ApiError(422, `messages[${i}].address: ${(e as Error).message}`);
    }
    const amount = BigInt(m.amount);
    if (amount >= 1n << 120n) throw new ApiError(422, `messages[${i}].amount: too large for a message value`);
    let init;
    if (m.stateInit) {
      try {
        const slice = oneCell(`messages[${i}].stateInit`, m.stateInit).beginParse();
        init = loadStateInit(slice);
        if (slice.remainingBits > 0 || slice.remainingRefs > 0) throw new Error('data after the StateInit');
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw new ApiError(422, `messages[${i}].stateInit: not a StateInit (${(e as Error).message})`);
      }
    }
    return internal({ to, value: amount, bounce, body: m.payload ? oneCell(`messages[${i}].payload`, m.payload) : undefined, init });
  });

  const validUntil = body.valid_until !== undefined ? unixSeconds(body.valid_until) : Math.floor(Date.now() / 1000) + DEFAULT_VALIDITY_S;
  if (validUntil >= 2 ** 32) throw new ApiError(422, 'valid_until: beyond a 32-bit unix time');
  let signed: Cell;
  if (kind.version === 5) {
    // v5r1: opcode, wallet id, valid until, seqno, the out list (in the order @ton/ton's wallet packs it) and no
    // extended actions, the signature at the end.
    const actions: OutAction[] = messages.map((outMsg) => ({ type: 'sendMsg', mode: TON_CONNECT_SEND_MODE, outMsg }));
    signed = beginCell()
      .storeUint(0x7369676e, 32)
      .storeInt(data.walletId, 32)
      .storeUint(validUntil, 32)
      .storeUint(data.seqno, 32)
      .storeMaybeRef(beginCell().store(storeOutList(actions.slice().reverse())).endCell())
      .storeBit(0)
      .storeBuffer(ZERO_SIGNATURE)
      .endCell();
  } else {
    const b = beginCell().storeBuffer(ZERO_SIGNATURE).storeUint(data.walletId, 32).storeUint(validUntil, 32).storeUint(data.seqno, 32);
    if (kind.version === 4) b.storeUint(0, 8); // simple send
    for (const m of messages) b.storeUint(TON_CONNECT_SEND_MODE, 8).storeRef(beginCell().store(storeMessageRelaxed(m)).endCell());
    signed = b.endCell();
  }
  return beginCell()
    .store(storeMessage(external({ to: body.from, body: signed })))
    .endCell();
}

/** The emulation API over one network's chain backend: /api/emulate/v1/emulateTrace and emulateTonConnect. */
export function emulateOperations(deps: EmulateDeps): EmulateOperations {
  const { chain } = deps;
  const concurrency = deps.concurrency ?? MAX_CONCURRENT_EMULATIONS;
  let running = 0;

  /** What the flags ask for that this network cannot give, refused before any work. */
  async function precheck(flags: Flags): Promise<void> {
    if ((flags.include_address_book || flags.include_metadata) && !deps.index) {
      throw new ApiError(
        422,
        `${flags.include_address_book ? 'include_address_book' : 'include_metadata'}: address book and metadata are not available (no index)`,
      );
    }
    if (flags.mc_block_seqno !== undefined) {
      const last = (await chain.getMasterchainInfo()).last.seqno;
      if (flags.mc_block_seqno > last)
        throw new ApiError(422, `mc_block_seqno: masterchain block ${flags.mc_block_seqno} does not exist yet (the latest is ${last})`);
    }
  }

  async function emulate(message: Cell, flags: Flags, opts: { ignoreChksig: boolean; supported: Set<string> }) {
    if (running >= concurrency) throw new ApiError(429, 'emulations at capacity on this network: retry shortly');
    running++;
    let trace: EmulatedTrace;
    try {
      trace = await chain.emulateTrace(message, {
        ignoreChksig: opts.ignoreChksig,
        maxTransactions: MAX_TRACE_TRANSACTIONS,
        deadline: Date.now() + (deps.timeMs ?? EMULATION_TIME_MS),
        atMcSeqno: flags.mc_block_seqno,
      });
    } catch (err) {
      // The message itself is what the chain refused: the client's input.
      if (isChainError(err) && err.kind === 'refused') throw new ApiError(422, `boc: ${err.message}`);
      throw apiErrorOf(err);
    } finally {
      running--;
    }
    return reply(message, trace, flags, opts.supported);
  }

  async function reply(message: Cell, trace: EmulatedTrace, flags: Flags, supported: Set<string>): Promise<v3.EmulateTraceResponse> {
    const entry = pendingEntryOf(message, trace, { ttlMs: 0 });
    const transactions: Record<string, v3.Transaction> = {};
    for (const [hash, tx] of Object.entries(entry.trace.transactions ?? {})) {
      const { trace_id: _traceId, ...rest } = tx;
      transactions[hash] = rest;
    }
    const actions = flags.with_actions ? visibleActions(entry.actions, supported).map((a) => toV3Action(a, { finality: 'pending' })) : [];
    const out: v3.EmulateTraceResponse = {
      mc_block_seqno: trace.mcSeqno,
      trace: entry.trace.trace!,
      transactions,
      actions,
      rand_seed: ZERO_SEED,
      is_incomplete: trace.unprocessedMessages > 0,
    };
    if (flags.include_code_data) {
      const code: Record<string, string> = {};
      const data: Record<string, string> = {};
      for (const t of trace.transactions) {
        if (t.codeAfter) code[t.codeAfter.hash().toString('base64')] = t.codeAfter.toBoc().toString('base64');
        if (t.dataAfter) data[t.dataAfter.hash().toString('base64')] = t.dataAfter.toBoc().toString('base64');
      }
      out.code_cells = code;
      out.data_cells = data;
    }
    const addresses = [
      ...Object.values(transactions).flatMap((tx) => [tx.account, tx.in_msg?.source, ...tx.out_msgs.map((m) => m.destination)]),
      ...entry.actions.flatMap((a) => a.accounts),
    ];
    if (flags.include_address_book) out.address_book = await addressBook(deps.index!, addresses, deps.testnet);
    if (flags.include_metadata) out.metadata = await tokenMetadata(deps.index!, addresses);
    return out;
  }

  return {
    async emulateTrace({ body, ctx }) {
      await precheck(body);
      let message: Cell;
      try {
        message = parseExternalMessage(Buffer.from(body.boc, 'base64')).cell;
      } catch (err) {
        throw new ApiError(422, `boc: ${(err as Error).message}`);
      }
      return {
        status: 200,
        body: await emulate(message, body, { ignoreChksig: body.ignore_chksig, supported: supportedOf(ctx, 'latest') }),
      };
    },

    async emulateTonConnect({ body, ctx }) {
      await precheck(body);
      let message: Cell;
      try {
        message = await tonConnectMessage(chain, body);
      } catch (err) {
        throw apiErrorOf(err);
      }
      return { status: 200, body: await emulate(message, body, { ignoreChksig: true, supported: supportedOf(ctx, 'v1') }) };
    },
  };
}
