import { beginCell, Cell, loadMessage, type Message } from '@ton/core';
import { ChainError } from './errors.js';

/**
 * TEP-467 normalized hash of an external-in message: the hash of the same message rebuilt with src = addr_none,
 * import_fee = 0, no state init and the body as a reference. It stays the same when a wallet re-sends the message
 * with a different import fee or init, which is why indexers key traces on it.
 */
export function normalizedExternalMessageHash(message: Message | Cell): Buffer {
  const msg = message instanceof Cell ? loadMessage(message.beginParse()) : message;
  if (msg.info.type !== 'external-in') throw new Error('normalized hash is defined for external-in messages only');
  const normalized = beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0, 2) // src: addr_none$00
    .storeAddress(msg.info.dest)
    .storeCoins(0) // import_fee
    .storeBit(false) // init: nothing
    .storeBit(true) // body: as a reference
    .storeRef(msg.body)
    .endCell();
  return normalized.hash();
}

/** An external-in message from a client's BOC (one root), or ChainError 'invalid' naming what is wrong with it. */
export function parseExternalMessage(boc: Buffer): { cell: Cell; msg: Message } {
  let cells: Cell[];
  try {
    cells = Cell.fromBoc(boc);
  } catch (e) {
    throw new ChainError('invalid', `cannot deserialize BOC: ${(e as Error).message}`);
  }
  if (cells.length !== 1) throw new ChainError('invalid', `expected a BOC with one root, got ${cells.length}`);
  return { cell: cells[0], msg: externalMessageOf(cells[0]) };
}

/** A cell read as an external-in message, or ChainError 'invalid'. */
export function externalMessageOf(cell: Cell): Message {
  let msg: Message;
  try {
    msg = loadMessage(cell.beginParse());
  } catch (e) {
    throw new ChainError('invalid', `not a Message: ${(e as Error).message}`);
  }
  if (msg.info.type !== 'external-in') throw new ChainError('invalid', `expected an external-in message, got ${msg.info.type}`);
  return msg;
}
