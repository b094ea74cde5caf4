import { describe, expect, it } from 'vitest';
import { Address, beginCell, Dictionary, internal, storeMessageRelaxed, type TupleItem } from '@ton/core';
import { decodeMultisigOrderActions, MULTISIG_ACTION_TAGS, readMultisigData, readMultisigOrderData } from '../src/multisig.js';

const int = (value: bigint | number): TupleItem => ({ type: 'int', value: BigInt(value) });
const addresses = [0, 1, 2].map((i) => new Address(0, Buffer.alloc(32, i + 1)));
const multisig = new Address(-1, Buffer.alloc(32, 9));

function indexed(list: Address[]): TupleItem {
  if (list.length === 0) return { type: 'null' };
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  // Inserted out of order: the reader returns them by index.
  [...list.entries()].reverse().forEach(([i, a]) => dict.set(i, a));
  return { type: 'cell', cell: beginCell().storeDictDirect(dict).endCell() };
}

function orderCell(actions: ReturnType<typeof beginCell>[]) {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  actions.forEach((a, i) => dict.set(i, a.endCell()));
  return beginCell().storeDictDirect(dict).endCell();
}

describe('multisig v2 get-methods', () => {
  it('get_multisig_data: seqno, threshold, signers and proposers by index', () => {
    const data = readMultisigData([int(7), int(2), indexed(addresses.slice(0, 2)), indexed([addresses[2]])])!;
    expect(data.nextOrderSeqno).toBe(7n);
    expect(data.threshold).toBe(2);
    expect(data.signers.map((a) => a.toRawString())).toEqual(addresses.slice(0, 2).map((a) => a.toRawString()));
    expect(data.proposers.map((a) => a.toRawString())).toEqual([addresses[2].toRawString()]);
    expect(readMultisigData([int(0), int(1), indexed(addresses), { type: 'null' }])!.proposers).toEqual([]);
  });

  it('get_order_data: the nine values', () => {
    const order = orderCell([beginCell().storeUint(MULTISIG_ACTION_TAGS.updateParams, 32)]);
    const data = readMultisigOrderData([
      { type: 'slice', cell: beginCell().storeAddress(multisig).endCell() },
      int(3),
      int(2),
      int(-1),
      indexed(addresses),
      int(5),
      int(2),
      int(1_800_000_000),
      { type: 'cell', cell: order },
    ])!;
    expect(data).toMatchObject({
      orderSeqno: 3n,
      threshold: 2,
      sentForExecution: true,
      approvalsMask: 5n,
      approvalsNum: 2,
      expirationDate: 1_800_000_000,
    });
    expect(data.multisig.equals(multisig)).toBe(true);
    expect(data.signers).toHaveLength(3);
    expect(data.order!.equals(order)).toBe(true);
  });

  it('other shapes are not multisig data', () => {
    expect(readMultisigData([int(1), int(2), indexed(addresses)])).toBeNull();
    expect(readMultisigData([int(1), int(300), indexed(addresses), { type: 'null' }])).toBeNull();
    expect(readMultisigData([int(1), int(2), int(3), { type: 'null' }])).toBeNull();
    expect(readMultisigOrderData([int(1), int(2), int(3), int(4), int(5), int(6), int(7), int(8), int(9)])).toBeNull();
  });

  it('order actions: send_message decoded, parameter updates named, unknown tags kept with the reason', () => {
    const message = beginCell()
      .store(storeMessageRelaxed(internal({ to: addresses[1], value: 123n, bounce: false, body: 'hello' })))
      .endCell();
    const actions = decodeMultisigOrderActions(
      orderCell([
        beginCell().storeUint(MULTISIG_ACTION_TAGS.sendMessage, 32).storeUint(3, 8).storeRef(message),
        beginCell().storeUint(MULTISIG_ACTION_TAGS.updateParams, 32).storeUint(1, 8),
        beginCell().storeUint(0xdeadbeef, 32),
        beginCell().storeUint(MULTISIG_ACTION_TAGS.sendMessage, 32),
      ]),
    );
    expect(actions[0]).toMatchObject({ type: 'send_message', mode: 3, value: 123n });
    expect(actions[0].type === 'send_message' && actions[0].destination!.equals(addresses[1])).toBe(true);
    expect(actions[0].type === 'send_message' && actions[0].body.beginParse().skip(32).loadStringTail()).toBe('hello');
    expect(actions[1]).toEqual({ type: 'update_multisig_params' });
    expect(actions[2]).toEqual({ type: 'unknown', error: 'unknown action tag 0xdeadbeef' });
    expect(actions[3].type).toBe('unknown');
  });
});
