import { Address, beginCell, Cell, loadTransaction, storeShardAccount, type Message, type ShardAccount } from '@ton/core';
import { EmulationError, TimeError, type Blockchain } from '@ton/sandbox';
import {
  ChainError,
  emulateTraceWith,
  emulationResultOf,
  externalMessageOf,
  parseExternalMessage,
  shardAccountBoc,
  shardAccountOfBoc,
  type EmulatedTrace,
  type EmulationResult,
  type TraceEmulationOptions,
} from '@tongate/chain';
import { emulatorCall } from './executor.js';
import type { BlockchainControl } from './fast/index.js';
import { LT_PER_ROUND, nowSeconds, type BlockProducer, type OutboundMessage } from './producer.js';
import { rawExternalMessage, type AppliedTransaction, type MessageRunner, type RunResult } from './runner.js';

/** Pending (not yet sealed) transactions the devnet holds at most; more are refused until the next block. */
export const EXT_MSG_QUEUE_SIZE_LIMIT = 10_000;

/**
 * External messages: sent ones run at once against the live state (with the internal messages they cause) and
 * land in the next round; emulated ones run on a copy and commit nothing.
 */
export class Messages {
  constructor(
    private readonly bc: Blockchain,
    private readonly producer: BlockProducer,
    private readonly control: BlockchainControl,
    /** The direct message runner (see runner.ts); null when the sandbox queue is used. */
    private readonly runner: MessageRunner | null,
    private readonly logger?: { info(obj: object, msg?: string): void },
  ) {}

  async send(boc: Buffer): Promise<{ hash: Buffer }> {
    // The usual message (a plain BOC, an ext_in header to a devnet workchain) is read in place and reaches the
    // emulator as the client sent it; anything else gets @ton/core's full decoding first, which names what is wrong.
    const raw = this.runner ? rawExternalMessage(boc) : null;
    const parsed = raw ? null : parseExternal(boc);
    return this.producer.serial(async () => {
      if (this.producer.pendingCount >= EXT_MSG_QUEUE_SIZE_LIMIT)
        throw new ChainError('refused', 'external message queue is full, retry after the next block');
      let result: RunResult;
      if (this.runner?.applicable) {
        const dest = raw ? raw.dest : (parsed!.msg.info.dest as Address);
        result = await this.runner.run(raw ? boc.toString('base64') : parsed!.cell.toBoc().toString('base64'), dest, (from, to) =>
          this.producer.sameShard(from, to),
        );
        // A refused message read in place may be malformed further in: then that is the answer (400, not 422).
        if (result.transactions.length === 0 && raw) parseExternal(boc);
      } else {
        result = await this.runInSandboxQueue((parsed ?? parseExternal(boc)).msg);
      }
      const { transactions, failure } = result;
      if (transactions.length === 0) throw new ChainError('refused', rejectionReason(failure));
      if (failure) this.logger?.info({ err: String(failure) }, 'devnet: message chain stopped early');
      for (const tx of transactions) this.producer.addPending(tx);
      this.producer.addOutbound(result.outbound);
      return { hash: raw ? raw.hash : parsed!.cell.hash() };
    });
  }

  /**
   * Delivers messages between shards after the round that carried their senders (the producer calls it inside its
   * queue). A message the emulator cannot run is dropped with a log line, as a chain would never carry it.
   */
  async deliver(messages: OutboundMessage[]): Promise<void> {
    const runner = this.runner;
    if (!runner) return;
    for (const m of messages) {
      const result = await runner.run(m.boc, m.dest, (from, to) => this.producer.sameShard(from, to));
      if (result.failure)
        this.logger?.info({ err: String(result.failure), dest: m.dest.toRawString() }, 'devnet: internal message not delivered');
      for (const tx of result.transactions) this.producer.addPending(tx);
      this.producer.addOutbound(result.outbound);
    }
  }

  /** The sandbox's own queue runs a message's whole trace at once: there, every message lands in the same round. */
  private async runInSandboxQueue(msg: Message): Promise<RunResult> {
    let failure: unknown;
    try {
      await this.bc.sendMessage(msg);
    } catch (e) {
      failure = e;
    }
    const transactions = this.control.takeTransactions().map((tx): AppliedTransaction => {
      const account = Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex');
      // Only tick-tock transactions come without an inbound message, and those run in the masterchain.
      const address = tx.inMessage?.info.dest instanceof Address ? tx.inMessage.info.dest : new Address(-1, account);
      return { address, lt: tx.lt, hash: tx.hash(), boc: tx.raw.toBoc() };
    });
    return { transactions, outbound: [], failure };
  }

  async emulate(message: Cell, opts: { ignoreChksig: boolean }): Promise<EmulationResult> {
    const msg = externalOf(message);
    const dest = msg.info.dest as Address;
    return this.producer.serial(async () => {
      const sc = await this.bc.getContract(dest);
      const lastTxTime = sc.account.account?.storageStats.lastPaid ?? 0;
      const res = await emulatorCall(() =>
        this.bc.executor.runTransaction({
          config: this.bc.configBase64,
          libs: this.bc.libs ?? null,
          verbosity: 'short',
          shardAccount: beginCell().store(storeShardAccount(sc.account)).endCell().toBoc().toString('base64'),
          message,
          now: Math.max(nowSeconds(), lastTxTime),
          lt: this.bc.lt + LT_PER_ROUND,
          randomSeed: Buffer.alloc(32),
          ignoreChksig: opts.ignoreChksig,
          debugEnabled: false,
          prevBlocksInfo: this.bc.prevBlocks,
        }),
      );
      if (!res.result.success) {
        throw new ChainError(
          'refused',
          `external message not accepted: ${res.result.error}${res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : ''}`,
        );
      }
      return emulationResultOf(loadTransaction(Cell.fromBase64(res.result.transaction).beginParse()));
    });
  }
  /**
   * The whole trace of an external message on a copy of the live state (the message's own checks included), or on
   * the state of an earlier masterchain block when `stateAt` reads one.
   */
  async emulateTrace(
    message: Cell,
    mcSeqno: number,
    opts: TraceEmulationOptions = {},
    stateAt?: (address: Address) => Promise<ShardAccount>,
  ): Promise<EmulatedTrace> {
    externalOf(message);
    return this.producer.serial(() =>
      emulateTraceWith(
        {
          mcSeqno,
          shardAccount: stateAt ?? (async (address) => (await this.bc.getContract(address)).account),
          runTransaction: async (shardAccount, msg, { now, lt, ignoreChksig }) => {
            const res = await emulatorCall(() =>
              this.bc.executor.runTransaction({
                config: this.bc.configBase64,
                libs: this.bc.libs ?? null,
                verbosity: 'short',
                shardAccount: shardAccountBoc(shardAccount),
                message: msg,
                now: Math.max(now, nowSeconds()),
                lt: lt > this.bc.lt + LT_PER_ROUND ? lt : this.bc.lt + LT_PER_ROUND,
                randomSeed: Buffer.alloc(32),
                ignoreChksig,
                debugEnabled: false,
                prevBlocksInfo: this.bc.prevBlocks,
              }),
            );
            if (!res.result.success)
              return { error: `${res.result.error}${res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : ''}` };
            return { transaction: Cell.fromBase64(res.result.transaction), shardAccount: shardAccountOfBoc(res.result.shardAccount) };
          },
        },
        message,
        opts,
      ),
    );
  }
}

/** A client's external message (decoded by the chain package's rules), to a workchain the devnet has. */
function parseExternal(boc: Buffer): { cell: Cell; msg: Message } {
  const parsed = parseExternalMessage(boc);
  checkWorkchain(parsed.msg);
  return parsed;
}

function externalOf(cell: Cell): Message {
  const msg = externalMessageOf(cell);
  checkWorkchain(msg);
  return msg;
}

function checkWorkchain(msg: Message): void {
  const wc = (msg.info.dest as Address).workChain;
  if (wc !== 0 && wc !== -1) throw new ChainError('invalid', `workchain ${wc} does not exist on the devnet`);
}

function rejectionReason(e: unknown): string {
  if (e instanceof EmulationError) {
    return `external message not accepted by the account: ${e.error}${e.exitCode !== undefined ? ` (exit code ${e.exitCode})` : ''}`;
  }
  if (e instanceof TimeError) return 'external message not accepted: account time is ahead of the devnet clock';
  if (e instanceof ChainError) return e.message;
  return `external message not accepted: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
}
