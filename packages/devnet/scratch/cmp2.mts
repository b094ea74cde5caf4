import { Address, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '../src/index.js';
const N = 200;
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
const signer = signerFromSeed(devnet.faucet.secretKey);
let seq = 0;
const bc = (devnet as any).bc;
const variants: [string, () => void][] = [
  ['as is', () => {}],
  ['no prevBlocks', () => { (devnet as any).updatePrevBlocks = () => {}; bc.prevBlocks = undefined; }],
  ['no prevBlocks, no libs', () => { bc.libs = undefined; }],
  ['as is again?', () => {}],
];
for (const [name, apply] of variants) {
  apply();
  const b: Buffer[] = [];
  for (let s = seq; s < seq + N; s++) b.push(await walletTransferBoc(wallet, signer, s, [internal({ to: new Address(0, Buffer.alloc(32, 1 + (s % 8))), value: toNano('0.01'), bounce: false })], { validForSeconds: 3600 }));
  seq += N;
  const c = process.cpuUsage();
  for (let i = 0; i < b.length; i++) { await devnet.sendMessage(b[i]); if (i % 100 === 99) await devnet.produceBlock(); }
  const u = process.cpuUsage(c); console.log(name.padEnd(24), 'cpu ms/op', ((u.user + u.system) / 1000 / N).toFixed(2));
}
