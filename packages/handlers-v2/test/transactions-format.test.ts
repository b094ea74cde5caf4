import { Address, beginCell, Cell, loadTransaction } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { textCommentBytes } from '@tongate/chain';
import { formatExtTransaction, formatRawTransaction } from '../src/transactions-format.js';
import { commentTransfer } from './sandbox-data.js';

describe('transaction formatting on real sandbox transactions', async () => {
  const { sender, receiver, transactions } = await commentTransfer();
  const senderTx = transactions.find((t) => t.address.equals(sender.address))!;
  const receiverTx = transactions.find((t) => t.address.equals(receiver.address))!;

  it('a repeated format of the same transaction equals a fresh one, per shape and network flag', () => {
    for (const testOnly of [false, true]) {
      const fresh = { ...receiverTx, cell: Cell.fromBoc(receiverTx.cell.toBoc())[0] };
      expect(formatExtTransaction(receiverTx, { testOnly })).toEqual(formatExtTransaction(fresh, { testOnly }));
      expect(formatExtTransaction(receiverTx, { testOnly })).toBe(formatExtTransaction(receiverTx, { testOnly }));
      expect(formatRawTransaction(receiverTx, { testOnly })).toEqual(formatRawTransaction(fresh, { testOnly }));
    }
    expect(formatExtTransaction(receiverTx, { testOnly: true }).in_msg!.source).not.toBe(
      formatExtTransaction(receiverTx, { testOnly: false }).in_msg!.source,
    );
  });

  it('ext.transaction of the receiving side carries the comment, plain string addresses and int64 strings', () => {
    const tx = formatExtTransaction(receiverTx, { testOnly: false });
    expect(tx['@type']).toBe('ext.transaction');
    expect(tx.account).toBe(`0:${receiver.address.hash.toString('hex').toUpperCase()}`);
    expect(tx.transaction_id.lt).toBe(receiverTx.lt.toString());
    expect(tx.transaction_id.hash).toBe(receiverTx.hash.toString('base64'));
    expect(typeof tx.fee).toBe('string');
    expect(BigInt(tx.fee)).toBe(BigInt(tx.storage_fee) + BigInt(tx.other_fee));
    const inMsg = tx.in_msg!;
    expect(inMsg['@type']).toBe('ext.message');
    expect(Address.parse(inMsg.source).equals(sender.address)).toBe(true);
    expect(Address.parse(inMsg.destination).equals(receiver.address)).toBe(true);
    expect(inMsg.value).toBe('1000000000');
    expect(inMsg.msg_data).toEqual({ '@type': 'msg.dataText', text: Buffer.from('hello ✓').toString('base64') });
    expect(inMsg.message).toBe('hello ✓');
    // The transaction BOC round-trips to the same transaction.
    const parsed = loadTransaction(Cell.fromBase64(tx.data).beginParse());
    expect(parsed.lt).toBe(receiverTx.lt);
  });

  it('external inbound message has empty source and created_lt 0; out message hash is the real message cell hash', () => {
    const tx = formatExtTransaction(senderTx, { testOnly: true });
    expect(tx.in_msg!.source).toBe('');
    expect(tx.in_msg!.created_lt).toBe('0');
    expect(tx.in_msg!.msg_data['@type']).toBe('msg.dataRaw');
    expect(tx.out_msgs).toHaveLength(1);
    const out = tx.out_msgs[0]!;
    expect(Address.parseFriendly(out.source).isTestOnly).toBe(true);
    // The matching inbound message of the receiver is the same cell: same hash.
    const receiverIn = formatExtTransaction(receiverTx, { testOnly: true }).in_msg!;
    expect(out.hash).toBe(receiverIn.hash);
    expect(out.created_lt).toBe(receiverIn.created_lt);
  });

  it('in_msg is omitted, never null, when the transaction has none', () => {
    const withoutIn = { ...receiverTx, tx: { ...receiverTx.tx, inMessage: undefined } };
    const tx = formatExtTransaction(withoutIn, { testOnly: false });
    expect('in_msg' in tx).toBe(false);
    expect(JSON.parse(JSON.stringify(tx))).not.toHaveProperty('in_msg');
  });

  it('raw.transaction uses accountAddress objects and no decoded message text', () => {
    const tx = formatRawTransaction(receiverTx, { testOnly: false });
    expect(tx['@type']).toBe('raw.transaction');
    expect(tx.in_msg!['@type']).toBe('raw.message');
    expect(tx.in_msg!.source['@type']).toBe('accountAddress');
    expect(tx.in_msg).not.toHaveProperty('message');
  });

  it('binary bodies are msg.dataRaw with the body BOC and the legacy data-bits message', () => {
    const body = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(7, 64).endCell();
    expect(textCommentBytes(body)).toBeNull();
    expect(
      textCommentBytes(
        beginCell()
          .storeUint(0, 32)
          .storeBuffer(Buffer.from([0xff, 0xfe]))
          .endCell(),
      ),
    ).toBeNull();
    expect(textCommentBytes(beginCell().storeUint(0, 32).storeStringTail('x'.repeat(300)).endCell())?.toString()).toBe('x'.repeat(300));
  });
});
