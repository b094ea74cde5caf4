import { Blockchain } from '@ton/sandbox';
import { Address, Cell, comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, signerFromSeed, walletTransferBoc } from '../src/index.js';
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
const signer = signerFromSeed(devnet.faucet.secretKey);
const N = 200;
const bocs: Buffer[] = [];
for (let s = 0; s < N; s++) bocs.push(await walletTransferBoc(wallet, signer, s, [internal({ to: new Address(0, Buffer.alloc(32, 1)), value: toNano('0.01'), bounce: false })], { validForSeconds: 3600 }));
// raw sandbox, same config
const bc = await Blockchain.create({ config: (devnet as any).config });
bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
const st = (await devnet.getAccountState(devnet.faucet.address)).shardAccount!;
const { loadShardAccount } = await import('@ton/core');
await bc.setShardAccount(devnet.faucet.address, loadShardAccount(st.beginParse()));
let t = performance.now();
for (const b of bocs) { await bc.sendMessage(Cell.fromBoc(b)[0]); (bc as any).transactions = []; }
console.log('raw sandbox ops/s', Math.round(N / (performance.now() - t) * 1000));
t = performance.now();
for (const b of bocs) await devnet.sendMessage(b);
console.log('devnet ops/s', Math.round(N / (performance.now() - t) * 1000));
