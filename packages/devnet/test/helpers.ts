import { comment, internal, toNano, type Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet } from '../src/index.js';

/** A signed external message that makes the faucet send `value` with a text comment. */
export async function faucetTransfer(
  devnet: Devnet,
  seqno: number,
  to: Address,
  value = toNano('1'),
  text = 'devnet test',
): Promise<Buffer> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  return walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
    internal({ to, value, bounce: false, body: comment(text) }),
  ]);
}

export async function faucetSeqno(devnet: Devnet): Promise<number> {
  const r = await devnet.runGetMethod(devnet.faucet.address, 'seqno', []);
  return Number((r.stack[0] as { value: bigint }).value);
}

/** Polls `probe` every 250 ms until it answers something truthy; fails after `timeoutMs` naming `what`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The elector tests' short cycle: a set validates 24 s, elections open 16 s before it and close 6 s before. */
export const SHORT_ELECTION_TIMING = { validatorsElectedFor: 24, electionsStartBefore: 16, electionsEndBefore: 6, stakeHeldFor: 4 };
