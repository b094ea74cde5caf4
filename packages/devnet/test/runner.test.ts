import {
  Address,
  beginCell,
  Cell,
  comment,
  Dictionary,
  ExternalAddress,
  internal,
  loadMessage,
  loadTransaction,
  storeMessage,
  storeShardAccount,
  toNano,
  type MessageRelaxed,
} from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { Blockchain, createEmptyShardAccount, EmulationError, TimeError, type BlockchainTransaction } from '@ton/sandbox';
import { WHOLE_SHARD } from '@tongate/chain';
import { describe, expect, it } from 'vitest';
import {
  createDevnet,
  devnetFaucet,
  DEVNET_FAUCET_BALANCE,
  genesisConfig,
  GLOBAL_IDS,
  signerFromSeed,
  walletTransferBoc,
} from '../src/index.js';
import { DevnetExecutor } from '../src/executor.js';
import { sandboxInternals } from '../src/fast/index.js';
import { bocRoot, MessageRunner, rawExternalMessage, rawTransactionSummary, readTransaction, transactionSummary } from '../src/runner.js';
import { jettonWalletCodeBoc } from '../src/contracts/codes.js';

const NOW = 1_750_000_000;

/** A sandbox set up as the devnet sets up its own: same config, libraries, verbosity, clock, seed and PREVBLOCKS. */
async function chain(): Promise<Blockchain> {
  const faucet = await devnetFaucet();
  const bc = await Blockchain.create({ config: genesisConfig(GLOBAL_IDS.mainnet), executor: await DevnetExecutor.create() });
  bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
  const lib = Cell.fromBase64(jettonWalletCodeBoc);
  bc.libs = beginCell()
    .storeDictDirect(Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell()).set(lib.hash(), lib))
    .endCell();
  bc.now = NOW;
  bc.random = Buffer.alloc(32, 3);
  const id = (seqno: number) => ({
    workchain: -1,
    shard: WHOLE_SHARD,
    seqno,
    rootHash: Buffer.alloc(32, seqno + 1),
    fileHash: Buffer.alloc(32, seqno + 2),
  });
  bc.prevBlocks = { lastMcBlocks: [id(2), id(1), id(0)], prevKeyBlock: id(0) };
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
  await bc.setShardAccount(faucet.address, {
    account: {
      addr: faucet.address,
      storage: {
        lastTransLt: 0n,
        balance: { coins: DEVNET_FAUCET_BALANCE },
        state: { type: 'active', state: { code: wallet.init.code, data: wallet.init.data } },
      },
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: NOW - 100, duePayment: null, storageExtra: null },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  });
  return bc;
}

type Outcome = { txs: { hash: string; lt: bigint; boc: string }[]; failure?: string };

async function viaSandbox(bc: Blockchain, boc: Buffer): Promise<Outcome> {
  let failure: unknown;
  try {
    await bc.sendMessage(loadMessage(Cell.fromBoc(boc)[0].beginParse()));
  } catch (e) {
    failure = e;
  }
  const holder = bc as unknown as { transactions: BlockchainTransaction[] };
  const txs = holder.transactions.map((t) => ({ hash: t.hash().toString('hex'), lt: t.lt, boc: t.raw.toBoc().toString('base64') }));
  holder.transactions = [];
  return { txs, failure: describeFailure(failure) };
}

async function viaRunner(runner: MessageRunner, boc: Buffer): Promise<Outcome> {
  const cell = Cell.fromBoc(boc)[0];
  const res = await runner.run(boc.toString('base64'), loadMessage(cell.beginParse()).info.dest as Address);
  // The runner keeps the emulator's bytes; re-serialize like the stock path to compare BOCs byte for byte.
  const txs = res.transactions.map((t) => ({
    hash: t.hash.toString('hex'),
    lt: t.lt,
    boc: Cell.fromBoc(t.boc)[0].toBoc().toString('base64'),
  }));
  return { txs, failure: describeFailure(res.failure) };
}

function describeFailure(e: unknown): string | undefined {
  if (e === undefined) return undefined;
  if (e instanceof EmulationError) return `EmulationError ${e.error} ${e.exitCode}`;
  if (e instanceof TimeError) return `TimeError ${e.address.toRawString()} ${e.previousTxTime} ${e.currentTime}`;
  return `other ${String(e)}`;
}

async function accountOf(bc: Blockchain, address: Address): Promise<string> {
  return ((await bc.getContract(address)) as unknown as { _account: string })._account;
}

describe('MessageRunner', () => {
  it('produces the same transactions, account states and failures as the sandbox queue', async () => {
    const faucet = await devnetFaucet();
    const faucetWallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
    const faucetSigner = signerFromSeed(faucet.secretKey);
    const otherSigner = signerFromSeed(Buffer.alloc(32, 9));
    const other = WalletContractV4.create({ workchain: 0, publicKey: otherSigner.publicKey });
    const plain = new Address(0, Buffer.alloc(32, 0x11));
    const missing = new Address(0, Buffer.alloc(32, 0x22));
    const fromFaucet = (seqno: number, messages: MessageRelaxed[]) => walletTransferBoc(faucetWallet, faucetSigner, seqno, messages);

    const steps: { boc: Buffer; now?: number }[] = [
      // Three out messages: a comment, funds for a wallet not deployed yet, and a bounceable one to an empty
      // account that bounces back to the faucet (five transactions).
      {
        boc: await fromFaucet(0, [
          internal({ to: plain, value: toNano('0.5'), bounce: false, body: comment('hello') }),
          internal({ to: other.address, value: toNano('5'), bounce: false }),
          internal({ to: missing, value: toNano('1'), bounce: true, body: comment('bounce me') }),
        ]),
      },
      // The new wallet deploys itself with its first external and answers with a comment too long to sit inline.
      {
        boc: await walletTransferBoc(other, otherSigner, 0, [
          internal({ to: faucet.address, value: toNano('1'), bounce: true, body: comment('x'.repeat(400)) }),
        ]),
      },
      // Rejected: wrong seqno.
      { boc: await fromFaucet(7, [internal({ to: plain, value: toNano('1'), bounce: false })]) },
      // Rejected: the clock is behind the account's last transaction.
      { boc: await fromFaucet(1, [internal({ to: plain, value: toNano('1'), bounce: false })]), now: NOW - 1000 },
      { boc: await fromFaucet(1, [internal({ to: plain, value: toNano('0.01'), bounce: false, body: comment('again') })]), now: NOW + 5 },
    ];

    const stock = await chain();
    const fast = await chain();
    const runner = MessageRunner.create(fast, fast.executor as DevnetExecutor, await sandboxInternals(fast, faucet.address));
    expect(runner).not.toBeNull();
    expect(runner!.applicable).toBe(true);

    const counts: number[] = [];
    for (const step of steps) {
      if (step.now !== undefined) stock.now = fast.now = step.now;
      const a = await viaSandbox(stock, step.boc);
      const b = await viaRunner(runner!, step.boc);
      expect(b).toEqual(a);
      expect(fast.lt).toBe(stock.lt);
      for (const address of [faucet.address, other.address, plain, missing])
        expect(await accountOf(fast, address)).toBe(await accountOf(stock, address));
      counts.push(a.txs.length);
    }
    // The scenario really exercised what it claims to.
    expect(counts).toEqual([5, 2, 0, 0, 2]);
  });

  it("delivers a message as the cell that was sent, so the transaction's in_msg hash is the hash sendMessage returned", async () => {
    // The sandbox queue re-encodes messages with @ton/core's storeMessage, which inlines a body that fits; a client
    // may keep it in a ref (valid TL-B), and then the executed message would not be the one the client tracks.
    const check = async (sandboxQueue: boolean) => {
      const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, sandboxQueue });
      try {
        const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
        const to = new Address(0, Buffer.alloc(32, 0x33));
        const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), 0, [
          internal({ to, value: toNano('1'), bounce: false, body: comment('short') }),
        ]);
        const inline = Cell.fromBoc(boc)[0];
        const withRefs = beginCell()
          .store(storeMessage(loadMessage(inline.beginParse()), { forceRef: true }))
          .endCell();
        expect(withRefs.hash()).not.toEqual(inline.hash());
        const { hash } = await devnet.sendMessage(withRefs.toBoc());
        expect(hash).toEqual(withRefs.hash());
        await devnet.settle();
        const state = await devnet.getAccountState(devnet.faucet.address);
        const tx = (await devnet.getTransaction(devnet.faucet.address, state.lastTransaction!.lt))!;
        const inMsg = tx.cell.refs[0].beginParse().loadMaybeRef()!;
        // The recipient's in_msg is the cell the faucet's transaction lists as its out message 0.
        const msgs = tx.cell.refs[0].beginParse();
        msgs.loadMaybeRef();
        const out = msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).get(0)!;
        const rstate = await devnet.getAccountState(to);
        const rtx = (await devnet.getTransaction(to, rstate.lastTransaction!.lt))!;
        expect(rtx.cell.refs[0].beginParse().loadMaybeRef()!.hash()).toEqual(out.hash());
        return { executed: inMsg.hash(), sent: hash, inline: inline.hash() };
      } finally {
        await devnet.close();
      }
    };
    const direct = await check(false);
    expect(direct.executed).toEqual(direct.sent);
    // The stock queue ran the re-encoded (inline) message instead, which this test would catch.
    const stock = await check(true);
    expect(stock.executed).toEqual(stock.inline);
    expect(stock.executed).not.toEqual(stock.sent);
  });

  it("reads an external message's hash and destination in place as @ton/core does, and leaves the rest to it", async () => {
    const faucet = await devnetFaucet();
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
    const signer = signerFromSeed(faucet.secretKey);
    const fresh = WalletContractV4.create({ workchain: -1, publicKey: signerFromSeed(Buffer.alloc(32, 5)).publicKey });
    const transfer = Cell.fromBoc(
      await walletTransferBoc(wallet, signer, 3, [internal({ to: new Address(0, Buffer.alloc(32, 1)), value: 1n, body: comment('x') })]),
    )[0];
    const withInit = beginCell()
      .store(
        storeMessage({
          info: { type: 'external-in', dest: fresh.address, importFee: 123456789n, src: new ExternalAddress(77n, 12) },
          init: fresh.init,
          body: beginCell().storeUint(9, 32).endCell(),
        }),
      )
      .endCell();
    for (const cell of [transfer, withInit]) {
      const msg = loadMessage(cell.beginParse());
      for (const opts of [
        { idx: false, crc32: false },
        { idx: true, crc32: true },
        { idx: false, crc32: true },
      ]) {
        const raw = rawExternalMessage(cell.toBoc(opts));
        expect(raw).not.toBeNull();
        expect(raw!.hash).toEqual(cell.hash());
        expect(raw!.dest.equals(msg.info.dest as Address)).toBe(true);
      }
    }
    // Not ext_in, another workchain, not a BOC, a bad checksum: left to @ton/core.
    const internalMsg = beginCell()
      .store(
        storeMessage({
          info: {
            type: 'internal',
            ihrDisabled: true,
            bounce: false,
            bounced: false,
            src: faucet.address,
            dest: faucet.address,
            value: { coins: 1n },
            ihrFee: 0n,
            forwardFee: 0n,
            createdLt: 0n,
            createdAt: 0,
          },
          body: Cell.EMPTY,
        }),
      )
      .endCell();
    const elsewhere = beginCell()
      .store(storeMessage({ info: { type: 'external-in', dest: new Address(7, Buffer.alloc(32)), importFee: 0n }, body: Cell.EMPTY }))
      .endCell();
    expect(rawExternalMessage(internalMsg.toBoc())).toBeNull();
    expect(rawExternalMessage(elsewhere.toBoc())).toBeNull();
    expect(rawExternalMessage(Buffer.from('nope'))).toBeNull();
    const corrupt = transfer.toBoc({ crc32: true });
    corrupt[corrupt.length - 2] ^= 0x40;
    expect(rawExternalMessage(corrupt)).toBeNull();
  });

  it("reads a BOC's root cell in place as @ton/core decodes it", () => {
    const child = beginCell().storeUint(7, 3).endCell();
    for (const bits of [0, 1, 7, 8, 320, 691, 1023]) {
      const b = beginCell();
      for (let i = 0; i < bits; i++) b.storeBit((i * 7) % 3 === 0);
      const cell = b.storeRef(child).storeRef(child).endCell();
      for (const opts of [{}, { idx: true }, { crc32: false }, { idx: true, crc32: true }]) {
        const root = bocRoot(cell.toBoc(opts));
        expect(root?.bits).toBe(bits);
        expect(root!.data.subarray(0, bits >> 3)).toEqual(cell.bits.subbuffer(0, bits - (bits % 8)));
      }
    }
    expect(bocRoot(Buffer.from('not a boc'))).toBeNull();
  });

  it('summarizes a transaction without out messages from the BOCs alone, and checks the account belongs to it', async () => {
    const bc = await chain();
    const faucet = await devnetFaucet();
    const executor = bc.executor as DevnetExecutor;
    const to = new Address(0, Buffer.alloc(32, 0x44));
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
    const ext = await walletTransferBoc(wallet, signerFromSeed(faucet.secretKey), 0, [
      internal({ to, value: toNano('1'), bounce: false, body: comment('hi') }),
    ]);
    const run = (shardAccount: string, message: Cell, lt: bigint) =>
      executor.runTransactionBoc({
        config: bc.configBase64,
        libs: null,
        verbosity: 'short',
        shardAccount,
        message: message.toBoc().toString('base64'),
        now: NOW,
        lt,
        randomSeed: Buffer.alloc(32),
        ignoreChksig: false,
        debugEnabled: false,
      });
    const first = run(await accountOf(bc, faucet.address), Cell.fromBoc(ext)[0], 2_000_000n);
    if (!first.result.success) throw new Error(first.result.error);
    const out = readTransaction(Cell.fromBase64(first.result.transaction)).outMessages;
    expect(out).toHaveLength(1);
    const empty = beginCell()
      .store(storeShardAccount(createEmptyShardAccount(to)))
      .endCell()
      .toBoc()
      .toString('base64');
    const second = run(empty, out[0], 3_000_000n);
    if (!second.result.success) throw new Error(second.result.error);
    const full = (b64: string) => {
      const cell = Cell.fromBase64(b64);
      const tx = loadTransaction(cell.beginParse());
      return { hash: cell.hash(), lt: tx.lt, now: tx.now, outMessages: tx.outMessagesCount };
    };
    const summary = (tx: string, account: string) => {
      const s = transactionSummary(Buffer.from(tx, 'base64'), account);
      return { ...s, outMessages: s.outMessages.length };
    };
    expect(summary(second.result.transaction, second.result.shardAccount)).toEqual(full(second.result.transaction));
    expect(summary(first.result.transaction, first.result.shardAccount)).toEqual(full(first.result.transaction));
    // With an account state from another transaction, the lt check sends it to the full decoder: still right.
    expect(summary(second.result.transaction, first.result.shardAccount)).toEqual(full(second.result.transaction));

    // The in-place reader agrees, out messages included (each re-serialized to the same cell, with its destination).
    const raw = (tx: string, account: string) => {
      const s = rawTransactionSummary(Buffer.from(tx, 'base64'), account);
      expect(s).not.toBeNull();
      return { hash: s!.hash, lt: s!.lt, now: s!.now, outMessages: s!.internals.length };
    };
    expect(raw(second.result.transaction, second.result.shardAccount)).toEqual(full(second.result.transaction));
    expect(raw(first.result.transaction, first.result.shardAccount)).toEqual(full(first.result.transaction));
    expect(raw(second.result.transaction, first.result.shardAccount)).toEqual(full(second.result.transaction));
    const [message] = rawTransactionSummary(Buffer.from(first.result.transaction, 'base64'), first.result.shardAccount)!.internals;
    expect(Cell.fromBase64(message.boc).hash()).toEqual(out[0].hash());
    expect(new Address(message.workchain, Buffer.from(message.account)).equals(to)).toBe(true);
  });
});
