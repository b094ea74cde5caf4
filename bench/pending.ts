/**
 * Pending-trace emulation throughput (part of bench:v3): how many external messages per second the service turns
 * into pending traces — the whole trace emulated on a devnet, rows, wire shapes, classification, stored in process.
 * Each message is a faucet transfer to 4 receivers (a trace of 5 transactions). The broadcast itself is left out
 * (the devnet would run the message for real): only what `submit` adds to a send is measured.
 */
import { Address, Cell, internal } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { ChainSource } from '@tongate/chain';
import { createDevnet, signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { MemoryPendingStore, PendingTraces } from '@tongate/handlers-v3';
import { round } from './lib.js';

export async function benchPendingEmulation(messages = 200) {
  const devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  try {
    await devnet.seed();
    const notBroadcast = new Proxy(devnet, {
      get(target, prop) {
        if (prop === 'sendMessage') return async (boc: Buffer) => ({ hash: Cell.fromBoc(boc)[0]!.hash() });
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as ChainSource;
    const store = new MemoryPendingStore(messages);
    const pending = new PendingTraces({ chain: notBroadcast, store, ttlMs: 600_000 });
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    // The same seqno for every message (none is committed), different receivers and comments.
    const cells: Cell[] = [];
    for (let m = 0; m < messages + 10; m++) {
      const to = [0, 1, 2, 3].map((i) =>
        internal({
          to: new Address(0, Buffer.from((m * 4 + i + 1).toString(16).padStart(64, '0'), 'hex')),
          value: 1_000_000n,
          bounce: false,
          body: `pending ${m}.${i}`,
        }),
      );
      cells.push(Cell.fromBoc(await walletTransferBoc(wallet, signer, seqno, to, { validForSeconds: 3600 }))[0]!);
    }
    for (const cell of cells.slice(0, 10)) await pending.submit(cell); // warm-up: JIT, emulator caches
    const started = performance.now();
    for (const cell of cells.slice(10)) await pending.submit(cell);
    const seconds = (performance.now() - started) / 1000;
    const stored = (await store.unfinished('testnet', messages + 10)).length;
    if (stored < messages) throw new Error(`only ${stored} of ${messages} pending traces were stored`);
    return {
      description:
        'external messages (faucet transfer to 4 receivers: 5-transaction traces) emulated, classified and stored as pending traces, one at a time, devnet in process',
      messages,
      transactionsPerTrace: 5,
      tracesPerSecond: round(messages / seconds, 1),
    };
  } finally {
    await devnet.close();
  }
}
