import { Cell, loadMessageRelaxed, type MessageRelaxed } from '@ton/core';
import { tryDecode } from './decode.js';

const WALLET_V5_SIGNED_EXTERNAL = 0x7369676e;
const OUT_ACTION_SEND_MSG = 0x0ec3c86d;

export interface WalletRequestMessage {
  message: MessageRelaxed;
  /** hash of the message cell, base64 */
  hash: string;
}

function readRelaxed(cell: Cell): WalletRequestMessage | null {
  return tryDecode(() => ({ message: loadMessageRelaxed(cell.beginParse()), hash: cell.hash().toString('base64') }));
}

/**
 * The messages a wallet was asked to send by a signed external request (v3, v4, v5r1). Used when the request's
 * transaction produced no outbound messages (its action phase failed): the actions are then rebuilt from what the
 * owner asked for.
 */
export function walletRequestMessages(body: Cell): WalletRequestMessage[] {
  const s = body.beginParse();
  if (s.remainingBits >= 32 && s.preloadUint(32) === WALLET_V5_SIGNED_EXTERNAL) {
    return (
      tryDecode(() => {
        s.skip(32 + 32 + 32 + 32);
        // OutList: each cell holds ^prev and one action; action_send_msg#0ec3c86d mode:uint8 ^message
        const out: WalletRequestMessage[] = [];
        let cur = s.loadMaybeRef();
        while (cur && cur.bits.length > 0) {
          const cs = cur.beginParse();
          const prev = cs.loadRef();
          if (cs.loadUint(32) === OUT_ACTION_SEND_MSG) {
            cs.skip(8);
            const m = readRelaxed(cs.loadRef());
            if (m) out.push(m);
          }
          cur = prev;
        }
        return out.reverse(); // the list runs newest first
      }) ?? []
    );
  }
  // v3 / v4: signature, subwallet id, valid until, seqno, (v4: op), then one send mode byte per referenced message
  return (
    tryDecode(() => {
      s.skip(512 + 32 + 32 + 32);
      const out: WalletRequestMessage[] = [];
      while (s.remainingRefs > 0) {
        const m = readRelaxed(s.loadRef());
        if (m) out.push(m);
      }
      return out;
    }) ?? []
  );
}
