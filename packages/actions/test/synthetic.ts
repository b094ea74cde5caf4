import { createHash } from 'node:crypto';
import { Address, beginCell, type Cell } from '@ton/core';
import type { AccountInterfaces, TraceInput, TraceMessage, TraceTransaction } from '../src/index.js';

/**
 * Builds small traces for flows the golden fixtures do not cover: each step is a transaction caused by a message
 * from the account of an earlier step (or an external message for the first one).
 */
export interface Step {
  account: string;
  /** index of the step whose transaction sent this message; omitted for the external root */
  from?: number;
  body?: Cell | null;
  value?: bigint;
  bounced?: boolean;
  aborted?: boolean;
  exitCode?: number;
  deploys?: boolean;
  /** external-out messages this transaction emitted */
  logs?: Cell[];
  /** a tick-tock transaction: no inbound message */
  tick?: boolean;
}

const hash = (text: string) => createHash('sha256').update(text).digest('base64');

export const addr = (n: number, wc = 0) => `${wc}:${n.toString(16).toUpperCase().padStart(64, '0')}`;

export function syntheticTrace(steps: Step[], interfaces: Record<string, AccountInterfaces> = {}): TraceInput {
  const base = 50_000_000_000_000;
  const txs: TraceTransaction[] = steps.map((step, i) => ({
    hash: hash(`tx${i}`),
    lt: base + i * 10,
    account: step.account,
    now: 1_760_000_000 + i,
    mc_block_seqno: 100,
    orig_status: step.deploys ? 'nonexist' : 'active',
    end_status: 'active',
    aborted: step.aborted ?? false,
    compute_exit_code: step.exitCode ?? 0,
    messages: [],
  }));
  steps.forEach((step, i) => {
    if (step.tick) return;
    const body = step.body ?? null;
    const opcode = body && body.bits.length >= 32 ? body.beginParse().loadInt(32) : null;
    const msg: TraceMessage = {
      direction: 'in',
      msg_hash: hash(`msg${i}`),
      source: step.from === undefined ? null : steps[step.from].account,
      destination: step.account,
      value: step.from === undefined ? null : String(step.value ?? 1_000_000_000n),
      bounced: step.bounced ?? false,
      created_lt: step.from === undefined ? null : Number(txs[step.from].lt) + 1,
      created_at: step.from === undefined ? null : txs[step.from].now,
      opcode,
      body: body ? body.toBoc().toString('base64') : null,
    };
    txs[i].messages.push(msg);
    if (step.from !== undefined) txs[step.from].messages.push({ ...msg, direction: 'out' });
    for (const [k, log] of (step.logs ?? []).entries()) {
      txs[i].messages.push({
        direction: 'out',
        msg_hash: hash(`log${i}-${k}`),
        source: step.account,
        destination: null,
        value: null,
        opcode: log.bits.length >= 32 ? log.beginParse().loadInt(32) : null,
        body: log.toBoc().toString('base64'),
      });
    }
  });
  return {
    trace: {
      trace_id: txs[0].hash,
      external_hash: txs[0].messages.find((m) => m.direction === 'in')?.msg_hash ?? null,
      mc_seqno_start: 100,
      mc_seqno_end: 100,
      start_lt: txs[0].lt,
      end_lt: txs[txs.length - 1].lt,
      start_utime: txs[0].now,
      end_utime: txs[txs.length - 1].now,
      state: 'complete',
    },
    transactions: txs,
    interfaces,
  };
}

/** TEP-74 bodies the synthetic flows send: a transfer request, the wallet-to-wallet transfer and the notification. */
export const jettonBodies = {
  transfer: (amount: bigint, to: string, response: string, queryId = 1n): Cell =>
    beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(queryId, 64)
      .storeCoins(amount)
      .storeAddress(Address.parseRaw(to))
      .storeAddress(Address.parseRaw(response))
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeMaybeRef(null)
      .endCell(),
  internalTransfer: (amount: bigint, queryId = 1n): Cell =>
    beginCell().storeUint(0x178d4519, 32).storeUint(queryId, 64).storeCoins(amount).endCell(),
  notify: (amount: bigint, sender: string, queryId = 1n): Cell =>
    beginCell()
      .storeUint(0x7362d09c, 32)
      .storeUint(queryId, 64)
      .storeCoins(amount)
      .storeAddress(Address.parseRaw(sender))
      .storeBit(0)
      .endCell(),
};
