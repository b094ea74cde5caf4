import { Address, beginCell, Cell, contractAddress, Dictionary, storeMessageRelaxed, type MessageRelaxed, type StateInit } from '@ton/core';
import { multisigCodeBoc, multisigOrderCodeBoc } from './codes.js';

/**
 * The devnet multisig (contracts/multisig.fc) and its orders (contracts/multisig-order.fc): state init, order
 * address, and the bodies of `new_order` and `approve`. Orders hold multisig v2 actions: a `HashmapE 8 ^Action`
 * of `send_message#f1381e5b mode:uint8 message:^MessageRelaxed`.
 */

export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  execute: 0x75097f5d,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
} as const;
export const MULTISIG_ACTION = { sendMessage: 0xf1381e5b } as const;

export const multisigCode = () => Cell.fromBase64(multisigCodeBoc);
export const multisigOrderCode = () => Cell.fromBase64(multisigOrderCodeBoc);

function addressDict(addresses: Address[]) {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  addresses.forEach((a, i) => dict.set(i, a));
  return dict;
}

export function multisigInit(args: { signers: Address[]; proposers: Address[]; threshold: number }): { address: Address; init: StateInit } {
  const data = beginCell()
    .storeUint(0, 256)
    .storeUint(args.threshold, 8)
    .storeRef(beginCell().storeDictDirect(addressDict(args.signers)).endCell())
    .storeUint(args.signers.length, 8)
    .storeDict(addressDict(args.proposers))
    .storeRef(multisigOrderCode())
    .endCell();
  const init = { code: multisigCode(), data };
  return { address: contractAddress(0, init), init };
}

export function multisigOrderAddress(multisig: Address, orderSeqno: bigint): Address {
  const data = beginCell().storeAddress(multisig).storeUint(orderSeqno, 256).endCell();
  return contractAddress(0, { code: multisigOrderCode(), data });
}

/** An order of `send_message` actions, each a message the multisig sends with its mode. */
export function multisigOrder(messages: { message: MessageRelaxed; mode: number }[]): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  messages.forEach(({ message, mode }, i) =>
    dict.set(
      i,
      beginCell()
        .storeUint(MULTISIG_ACTION.sendMessage, 32)
        .storeUint(mode, 8)
        .storeRef(beginCell().store(storeMessageRelaxed(message)).endCell())
        .endCell(),
    ),
  );
  return beginCell().storeDictDirect(dict).endCell();
}

export function multisigNewOrderBody(args: {
  orderSeqno: bigint;
  bySigner: boolean;
  index: number;
  expirationDate: number;
  order: Cell;
  queryId?: bigint;
}): Cell {
  return beginCell()
    .storeUint(MULTISIG_OP.newOrder, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeUint(args.orderSeqno, 256)
    .storeBit(args.bySigner)
    .storeUint(args.index, 8)
    .storeUint(args.expirationDate, 48)
    .storeRef(args.order)
    .endCell();
}

export function multisigApproveBody(signerIndex: number, queryId = 0n): Cell {
  return beginCell().storeUint(MULTISIG_OP.approve, 32).storeUint(queryId, 64).storeUint(signerIndex, 8).endCell();
}
