import { beginCell, external, SendMode, storeMessage, type Cell, type MessageRelaxed, type StateInit } from '@ton/core';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import type { Ed25519Signer } from './keys.js';

export type DevnetWallet = WalletContractV3R2 | WalletContractV4 | WalletContractV5R1;

/**
 * Builds a signed external message (BOC) that makes a v3r2, v4r2 or v5r1 wallet send `messages`. The first message of a
 * wallet (seqno 0) carries its state init, so sending it deploys the wallet.
 */
export async function walletTransferBoc(
  wallet: DevnetWallet,
  signer: Ed25519Signer,
  seqno: number,
  messages: MessageRelaxed[],
  opts: { validForSeconds?: number } = {},
): Promise<Buffer> {
  const sign = async (payload: Cell) => signer.sign(payload.hash());
  const timeout = Math.floor(Date.now() / 1000) + (opts.validForSeconds ?? 120);
  const sendMode = SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS;
  const body =
    wallet instanceof WalletContractV3R2
      ? await wallet.createTransfer({ seqno, messages, sendMode, timeout, signer: sign })
      : wallet instanceof WalletContractV4
        ? await wallet.createTransfer({ seqno, messages, sendMode, timeout, signer: sign })
        : await wallet.createTransfer({ seqno, messages, sendMode, timeout, signer: sign });
  const init: StateInit | undefined = seqno === 0 ? wallet.init : undefined;
  const msg = external({ to: wallet.address, init, body });
  return beginCell().store(storeMessage(msg)).endCell().toBoc();
}
