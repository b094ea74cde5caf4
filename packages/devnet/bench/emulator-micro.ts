/**
 * Emulator micro-bench: CPU per wallet transfer transaction through DevnetExecutor, with the sandbox's stock
 * emscripten glue and with the memoized invoke_* glue (src/emulator.ts). Same inputs, repeated; no state changes.
 *   npx tsx bench/emulator-micro.ts [iterations]
 */
import { Address, Cell, toNano } from '@ton/core';
import { createDevnet, installFastSha256 } from '../src/index.js';
import { DevnetExecutor } from '../src/executor.js';
import { faucetTransfer } from '../test/helpers.js';

const n = Number(process.argv[2] ?? 2000);
installFastSha256(); // as the composition root does (packages/cli/src/start.ts)
const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
const state = await devnet.getAccountState(devnet.faucet.address);
const message = Cell.fromBoc(await faucetTransfer(devnet, 0, new Address(0, Buffer.alloc(32, 5)), toNano('1')))[0];
const args = {
  config: (await devnet.getConfigAll()).toBoc().toString('base64'),
  libs: null,
  verbosity: 'short' as const,
  shardAccount: state.shardAccount!.toBoc().toString('base64'),
  message: message.toBoc().toString('base64'),
  now: Math.floor(Date.now() / 1000),
  lt: 5_000_000n,
  randomSeed: Buffer.alloc(32, 1),
  ignoreChksig: false,
  debugEnabled: false,
};
await devnet.close();
// Alternate the two several times and keep each one's best round: the machine may be shared.
const executors = { 'stock glue': await DevnetExecutor.create({ stockGlue: true }), 'memoized glue': await DevnetExecutor.create() };
const best: Record<string, number> = {};
for (let round = 0; round < 6; round++) {
  for (const [name, executor] of Object.entries(executors)) {
    for (let i = 0; i < 100; i++) executor.runTransactionBoc(args);
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i++) if (!executor.runTransactionBoc(args).result.success) throw new Error('emulation failed');
    const c = process.cpuUsage(cpu);
    best[name] = Math.min(best[name] ?? Infinity, (c.user + c.system) / n);
  }
}
for (const [name, us] of Object.entries(best)) console.log(`${name}: ${us.toFixed(0)} µs CPU per transaction (best of 6 rounds of ${n})`);
console.log(
  'load average',
  (await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' '),
);
