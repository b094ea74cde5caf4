import { Address, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '../src/index.js';
const N = 150;
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
const signer = signerFromSeed(devnet.faucet.secretKey);
let seq = 0;
const bc = (devnet as any).bc;
const libs = bc.libs;
const origUpdate = (devnet as any).updatePrevBlocks.bind(devnet);
const set = (prev: boolean, withLibs: boolean) => {
  (devnet as any).updatePrevBlocks = prev ? origUpdate : () => { bc.prevBlocks = undefined; };
  if (!prev) bc.prevBlocks = undefined; else origUpdate();
  bc.libs = withLibs ? libs : undefined;
};
const variants: [string, boolean, boolean][] = [['warmup', true, true], ['full', true, true], ['no prev', false, true], ['no libs', true, false], ['full', true, true], ['no prev', false, true], ['no libs', true, false]];
for (const [name, prev, withLibs] of variants) {
  set(prev, withLibs);
  const b: Buffer[] = [];
  for (let s = seq; s < seq + N; s++) b.push(await walletTransferBoc(wallet, signer, s, [internal({ to: new Address(0, Buffer.alloc(32, 1 + (s % 8))), value: toNano('0.01'), bounce: false })], { validForSeconds: 3600 }));
  seq += N;
  const c = process.cpuUsage(); const t = performance.now();
  for (let i = 0; i < b.length; i++) { await devnet.sendMessage(b[i]); if (i % 100 === 99) await devnet.produceBlock(); }
  const u = process.cpuUsage(c); console.log(name.padEnd(10), 'cpu ms/op', ((u.user + u.system) / 1000 / N).toFixed(2), 'wall ms/op', ((performance.now() - t) / N).toFixed(2));
}
