import { comment, internal, toNano, type Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet } from '../src/index.js';

/** A signed external message that makes the faucet send `value` with a text comment. */
export async function faucetTransfer(devnet: Devnet, seqno: number, to: Address, value = toNano('1'), text = 'devnet test'): Promise<Buffer> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  return walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [internal({ to, value, bounce: false, body: comment(text) })]);
}

export async function faucetSeqno(devnet: Devnet): Promise<number> {
  const r = await devnet.runGetMethod(devnet.faucet.address, 'seqno', []);
  return Number((r.stack[0] as { value: bigint }).value);
}
