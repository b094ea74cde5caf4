/**
 * The stored wire form is built as text (storedWire) for speed at ingest; it must be exactly JSON.stringify of the
 * handlers' object form (formatTransaction) without `trace_id`, byte for byte: same keys, same order, same escapes.
 * Checked over every transaction of a seeded devnet plus transfers whose comments need escaping, both from the
 * writer's rows (JSON columns as text) and from rows as read back for the backfill (JSON columns parsed).
 */
import { Address, internal } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectChain, type McBlockBatch } from '../src/index.js';
import type { MessageRow, TransactionRow } from '@tongate/read-model';
import {
  formatTransaction,
  MSG_INT64,
  MSG_JSON,
  selected,
  selectedMessages,
  selectedState,
  storedWire,
  TX_INT64,
  TX_JSON,
  wireAccountState,
  type WireStateRow,
  type WireTransactionRow,
} from '@tongate/read-model';

let devnet: Devnet;
const batches: McBlockBatch[] = [];
/** Comments that JSON must escape: quotes, a backslash, control characters, line separators, astral characters. */
const COMMENTS = ['say "hi" \\ back', 'tab\there\nnewline\u0001\u001f', 'line\u2028sep\u2029 😀 é', ''];

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  await devnet.seed();
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const signer = signerFromSeed(devnet.faucet.secretKey);
  const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  const messages = COMMENTS.map((body, i) =>
    // a bounceable transfer to an empty account bounces: bounced messages and aborted transactions too
    internal({ to: new Address(0, Buffer.alloc(32, i + 1)), value: 10_000_000n, bounce: i % 2 === 0, body }),
  );
  await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno, messages, { validForSeconds: 600 }));
  await devnet.produceBlock();
  await devnet.settle();
  batches.push(...(await collectChain(devnet)));
}, 180_000);

afterAll(async () => {
  await devnet?.close();
});

/** The object path: rows as a SELECT returns them, formatted, serialized, without trace_id. */
function reference(
  tx: TransactionRow,
  messages: readonly MessageRow[],
  contents: ReadonlyMap<string, string>,
  states: ReadonlyMap<string, WireStateRow>,
): string {
  const row = selected<WireTransactionRow>(tx, TX_INT64, TX_JSON);
  const wire = selectedMessages(messages, contents);
  const incoming = wire.find((m) => m.direction === 'in');
  const outgoing = wire.filter((m) => m.direction === 'out').sort((a, b) => a.out_index - b.out_index);
  const { trace_id: _traceId, ...form } = formatTransaction(
    row,
    incoming,
    outgoing,
    wireAccountState(row.account_state_hash_before, states),
    wireAccountState(row.account_state_hash_after, states),
  );
  return JSON.stringify(form);
}

function eachTransaction(
  visit: (tx: TransactionRow, messages: MessageRow[], contents: Map<string, string>, states: Map<string, WireStateRow>) => void,
): number {
  let count = 0;
  for (const batch of batches) {
    const contents = new Map(batch.contents.map((c) => [c.hash, c.body]));
    const states = new Map(batch.accountStates.map((s) => [s.hash, selectedState(s)]));
    for (const tx of batch.transactions) {
      visit(
        tx,
        batch.messages.filter((m) => m.tx_hash === tx.hash),
        contents,
        states,
      );
      count++;
    }
  }
  return count;
}

describe('stored wire form', () => {
  it('is JSON.stringify of formatTransaction without trace_id, from the writer rows', () => {
    const kinds = new Set<string>();
    const count = eachTransaction((tx, messages, contents, states) => {
      const text = storedWire(tx, messages, contents, states).wire;
      expect(text, tx.hash).toBe(reference(tx, messages, contents, states));
      const form = JSON.parse(text) as {
        in_msg: { hash_norm?: string; bounced: boolean | null; init_state: unknown; message_content: { decoded: unknown } } | null;
        out_msgs: unknown[];
      };
      if (form.in_msg?.hash_norm) kinds.add('external in');
      if (form.in_msg?.bounced) kinds.add('bounced');
      if (form.in_msg?.init_state) kinds.add('init state');
      if (form.in_msg?.message_content.decoded) kinds.add('comment');
      if (form.out_msgs.length > 1) kinds.add('several out');
    });
    expect(count).toBeGreaterThan(100);
    expect([...kinds].sort()).toEqual(['bounced', 'comment', 'external in', 'init state', 'several out']);
    // every tricky comment went through the text path
    const stored = batches
      .flatMap((b) => b.messages)
      .filter((m) => m.decoded_comment !== undefined)
      .map((m) => m.decoded_comment);
    for (const comment of COMMENTS) expect(stored).toContain(comment);
  });

  it('is the same from rows read back (JSON columns parsed, 64-bit columns as text, comments from the BOC)', () => {
    eachTransaction((tx, messages, contents, states) => {
      const readTx = selected<TransactionRow>(tx, TX_INT64, TX_JSON);
      const readMessages = messages.map((m) => {
        const { decoded_comment: _decoded, ...row } = selected<MessageRow>(m, MSG_INT64, MSG_JSON);
        return row as MessageRow;
      });
      expect(storedWire(readTx, readMessages, contents, states).wire, tx.hash).toBe(reference(tx, messages, contents, states));
    });
  });

  it('names each other account its messages touch once, sorted, in wire_peers', () => {
    eachTransaction((tx, messages, contents, states) => {
      const peers = JSON.parse(storedWire(tx, messages, contents, states).wire_peers) as string[];
      const expected = [
        ...new Set(messages.flatMap((m) => [m.source, m.destination]).filter((a): a is string => !!a && a !== tx.account)),
      ].sort();
      expect(peers).toEqual(expected);
    });
  });
});
