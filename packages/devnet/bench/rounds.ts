/**
 * What sealing a round costs the devnet (every shard's block and state cells, the masterchain block): the devnet
 * (two basechain shards, its defaults) first gets `accounts` funded accounts (default 300, four transfers per faucet
 * message), then seals rounds that are empty and rounds that carry one faucet message (four transfers, sent and run
 * before the clock starts), timing produceBlock alone. Medians of `rounds` each (default 40).
 *
 *   npx tsx packages/devnet/bench/rounds.ts [accounts] [rounds]
 *
 * Writes bench/results/devnet-rounds.json at the repo root.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Address, comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { createDevnet, installFastSha256, signerFromSeed, walletTransferBoc } from '../src/index.js';

const accounts = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 40);
installFastSha256();
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
const signer = signerFromSeed(devnet.faucet.secretKey);
let seqno = 0;
const send = async (to: Address[]) =>
  devnet.sendMessage(
    await walletTransferBoc(
      wallet,
      signer,
      seqno++,
      to.map((a, i) => internal({ to: a, value: toNano('0.1'), bounce: false, body: comment(`bench ${seqno} ${i}`) })),
      { validForSeconds: 3600 },
    ),
  );
const targets = Array.from({ length: accounts }, (_, i) => {
  const hash = Buffer.alloc(32);
  hash.writeUInt32BE((i * 2654435761) % 2 ** 32, 0); // spread over both shards
  hash.writeUInt32BE(i, 28);
  return new Address(0, hash);
});
for (let i = 0; i < targets.length; i += 4) {
  await send(targets.slice(i, i + 4));
  if ((i / 4) % 25 === 24) await devnet.settle();
}
await devnet.settle();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async (): Promise<number> => {
  const t = performance.now();
  await devnet.produceBlock();
  return performance.now() - t;
};
const empty: number[] = [];
for (let i = 0; i < rounds; i++) empty.push(await timed());
const busy: number[] = [];
for (let i = 0; i < rounds; i++) {
  await send(targets.slice((i * 4) % accounts, ((i * 4) % accounts) + 4));
  busy.push(await timed());
  await devnet.settle(); // the receivers in the other shard, untimed
}
await devnet.close();
const result = {
  accounts,
  rounds,
  emptyRoundMs: { median: +median(empty).toFixed(2), max: +Math.max(...empty).toFixed(2) },
  roundWithTransfersMs: { median: +median(busy).toFixed(2), max: +Math.max(...busy).toFixed(2) },
};
console.log(JSON.stringify(result));
const out = join(dirname(fileURLToPath(import.meta.url)), '../../../bench/results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'devnet-rounds.json'), JSON.stringify(result, null, 2) + '\n');
