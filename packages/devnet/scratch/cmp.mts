import { Blockchain } from '@ton/sandbox';
import { Address, Cell, internal, loadShardAccount, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '../src/index.js';
const N = 200;
async function bocsFor(pk: Buffer, sk: Buffer, from: number) {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: pk });
  const signer = signerFromSeed(sk);
  const out: Buffer[] = [];
  for (let s = from; s < from + N; s++) out.push(await walletTransferBoc(wallet, signer, s, [internal({ to: new Address(0, Buffer.alloc(32, 1 + (s % 8))), value: toNano('0.01'), bounce: false })], { validForSeconds: 3600 }));
  return out;
}
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const st = (await devnet.getAccountState(devnet.faucet.address)).shardAccount!;
const bc = await Blockchain.create({ config: (devnet as any).config });
bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
await bc.setShardAccount(devnet.faucet.address, loadShardAccount(st.beginParse()));
let rawSeq = 0, devSeq = 0;
for (let round = 0; round < 3; round++) {
  let b = await bocsFor(devnet.faucet.publicKey, devnet.faucet.secretKey, rawSeq); rawSeq += N;
  let c = process.cpuUsage();
  for (const x of b) { await bc.sendMessage(Cell.fromBoc(x)[0]); (bc as any).transactions = []; }
  let u = process.cpuUsage(c); console.log('raw    cpu ms/op', ((u.user + u.system) / 1000 / N).toFixed(2));
  b = await bocsFor(devnet.faucet.publicKey, devnet.faucet.secretKey, devSeq); devSeq += N;
  c = process.cpuUsage();
  for (let i = 0; i < b.length; i++) { await devnet.sendMessage(b[i]); if (i % 100 === 99) await devnet.produceBlock(); }
  u = process.cpuUsage(c); console.log('devnet cpu ms/op', ((u.user + u.system) / 1000 / N).toFixed(2));
}
await devnet.close();
