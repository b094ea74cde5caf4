import { Blockchain } from '@ton/sandbox';
import { Address, beginCell, Cell, comment, Dictionary, internal, loadShardAccount, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '../src/index.js';
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
const signer = signerFromSeed(devnet.faucet.secretKey);
const N = 150;
const bocs: Buffer[] = [];
for (let s = 0; s < N; s++) bocs.push(await walletTransferBoc(wallet, signer, s, [internal({ to: new Address(0, Buffer.alloc(32, 1)), value: toNano('0.01'), bounce: false })], { validForSeconds: 3600 }));
const st = (await devnet.getAccountState(devnet.faucet.address)).shardAccount!;
const full: Cell = (devnet as any).config;
const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), full);
const sizes = dict.keys().map(k => [k, dict.get(k)!.toBoc().length]).sort((a, b) => b[1] - a[1]).slice(0, 8);
console.log('largest params', JSON.stringify(sizes));
const trimmed = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), full);
for (const k of [32, 34, 36]) trimmed.delete(k);
const configs: [string, any][] = [['default', full], ['no-validators', beginCell().storeDictDirect(trimmed).endCell()], ['slim', 'slim'], ['default', full]];
for (const [name, cfg] of configs) {
  const bc = await Blockchain.create({ config: cfg });
  bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
  await bc.setShardAccount(devnet.faucet.address, loadShardAccount(st.beginParse()));
  const t = performance.now(); const c = process.cpuUsage();
  for (const b of bocs) { await bc.sendMessage(Cell.fromBoc(b)[0]); (bc as any).transactions = []; }
  { const u = process.cpuUsage(c); console.log(name, "wall ops/s", Math.round(N / (performance.now() - t) * 1000), "cpu ms/op", ((u.user + u.system) / 1000 / N).toFixed(2)); }
}
