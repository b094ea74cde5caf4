import { Address, beginCell, Cell, Dictionary, loadMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isChainError } from '@tongate/chain';
import { contractCodes, createDevnet, type Devnet } from '../src/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

let devnet: Devnet;
const receiver = new Address(0, Buffer.alloc(32, 0x42));

async function chainErrorOf(p: Promise<unknown>): Promise<{ kind: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isChainError(e)) return e;
    throw e;
  }
  throw new Error('expected a ChainError');
}

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
});
afterAll(() => devnet.close());

describe('sendMessage', () => {
  it('accepts a signed transfer with a comment and lands it in the next block', async () => {
    const before = (await devnet.getMasterchainInfo()).last.seqno;
    const boc = await faucetTransfer(devnet, 0, receiver, toNano('3'), 'hello devnet');
    const { hash } = await devnet.sendMessage(boc);
    expect(hash.equals(Cell.fromBoc(boc)[0].hash())).toBe(true);
    // Not visible before the block is sealed.
    expect((await devnet.getAccountState(receiver)).status).toBe('nonexist');
    const mc = await devnet.produceBlock();
    expect(mc.seqno).toBe(before + 1);
    const state = await devnet.getAccountState(receiver);
    expect(state.status).toBe('uninitialized');
    expect(state.balance).toBe(toNano('3'));
    const tx = await devnet.getTransaction(receiver, state.lastTransaction!.lt);
    expect(tx).not.toBeNull();
    expect(tx!.block.seqno).toBe(mc.seqno);
    expect(tx!.block.workchain).toBe(0);
    const body = tx!.tx.inMessage!.body.beginParse();
    expect(body.loadUint(32)).toBe(0);
    expect(body.loadStringTail()).toBe('hello devnet');
    const faucetTx = await devnet.getTransaction(
      devnet.faucet.address,
      tx!.tx.inMessage!.info.type === 'internal' ? tx!.tx.inMessage!.info.createdLt - 1n : 0n,
    );
    expect(faucetTx?.tx.inMessage?.info.type).toBe('external-in');
  });

  it('refuses a message the account rejects (wrong seqno) and records nothing', async () => {
    const lastBefore = (await devnet.getAccountState(devnet.faucet.address)).lastTransaction;
    const err = await chainErrorOf(devnet.sendMessage(await faucetTransfer(devnet, 0, receiver)));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/not accepted/);
    await devnet.produceBlock();
    expect((await devnet.getAccountState(devnet.faucet.address)).lastTransaction).toEqual(lastBefore);
  });

  it('rejects garbage and non-external messages as invalid', async () => {
    expect((await chainErrorOf(devnet.sendMessage(Buffer.from('not a boc')))).kind).toBe('invalid');
    const internalMsg = beginCell()
      .storeUint(0, 1)
      .storeBit(true)
      .storeBit(false)
      .storeBit(false)
      .storeAddress(receiver)
      .storeAddress(receiver)
      .storeCoins(1)
      .storeBit(false)
      .storeCoins(0)
      .storeCoins(0)
      .storeUint(0, 64)
      .storeUint(0, 32)
      .storeBit(false)
      .storeBit(false)
      .endCell();
    expect(loadMessage(internalMsg.beginParse()).info.type).toBe('internal');
    expect((await chainErrorOf(devnet.sendMessage(internalMsg.toBoc()))).kind).toBe('invalid');
    // A well-formed ext_in header followed by a broken StateInit: the header is read in place, the emulator refuses
    // the message, and the answer still names it malformed rather than refused.
    const brokenInit = beginCell()
      .storeUint(0b10, 2)
      .storeUint(0, 2)
      .storeAddress(devnet.faucet.address)
      .storeCoins(0)
      .storeBit(true)
      .storeBit(false)
      .storeBit(true)
      .endCell();
    expect(() => loadMessage(brokenInit.beginParse())).toThrow();
    const err = await chainErrorOf(devnet.sendMessage(brokenInit.toBoc()));
    expect(err.kind).toBe('invalid');
    expect(err.message).toMatch(/not a Message/);
    // A BOC whose checksum does not match is not a BOC.
    const good = await faucetTransfer(devnet, await faucetSeqno(devnet), receiver, toNano('1'));
    const corrupt = Buffer.from(good);
    corrupt[corrupt.length - 1] ^= 1;
    expect((await chainErrorOf(devnet.sendMessage(corrupt))).kind).toBe('invalid');
  });
});

describe('state and history', () => {
  it('serves account state at an older masterchain seqno exactly', async () => {
    const s1 = (await devnet.getMasterchainInfo()).last.seqno;
    const balance1 = (await devnet.getAccountState(receiver)).balance;
    await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), receiver, toNano('5'), 'second'));
    await devnet.produceBlock();
    const now = await devnet.getAccountState(receiver);
    // An uninitialized account pays a few nanotons of storage fee between transfers, as on the real chain.
    expect(now.balance <= balance1 + toNano('5') && now.balance > balance1 + toNano('5') - 1000n).toBe(true);
    const old = await devnet.getAccountState(receiver, s1);
    expect(old.balance).toBe(balance1);
    expect(old.block.seqno).toBe(s1);
    const genesis = await devnet.getAccountState(receiver, 0);
    expect(genesis.status).toBe('nonexist');
    expect(genesis.balance).toBe(0n);
    expect((await chainErrorOf(devnet.getAccountState(receiver, 10_000))).kind).toBe('not_found');
  });

  it('walks account history back from (lt, hash) inclusive, in pages', async () => {
    const faucet = devnet.faucet.address;
    const last = (await devnet.getAccountState(faucet)).lastTransaction!;
    const all = await devnet.getAccountTransactions(faucet, last, 10);
    expect(all).toHaveLength(2);
    expect(all[0].lt).toBe(last.lt);
    expect(all[0].hash.equals(last.hash)).toBe(true);
    expect(all[1].lt < all[0].lt).toBe(true);
    const page1 = await devnet.getAccountTransactions(faucet, last, 1);
    expect(page1).toHaveLength(1);
    const prev = {
      lt: page1[0].tx.prevTransactionLt,
      hash: Buffer.from(page1[0].tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex'),
    };
    const page2 = await devnet.getAccountTransactions(faucet, prev, 1);
    expect(page2[0].hash.equals(all[1].hash)).toBe(true);
    expect((await chainErrorOf(devnet.getAccountTransactions(faucet, { lt: last.lt, hash: Buffer.alloc(32) }, 1))).kind).toBe('not_found');
    expect(await devnet.getTransaction(faucet, 12345n)).toBeNull();
  });

  it('runs get-methods by name and id, now and at an older block', async () => {
    const faucet = devnet.faucet.address;
    const seqno = await devnet.runGetMethod(faucet, 'seqno', []);
    expect(seqno.exitCode).toBe(0);
    expect(seqno.stack).toEqual([{ type: 'int', value: 2n }]);
    expect(seqno.gasUsed > 0n).toBe(true);
    const byId = await devnet.runGetMethod(faucet, 85143, []);
    expect(byId.stack).toEqual(seqno.stack);
    const atGenesis = await devnet.runGetMethod(faucet, 'seqno', [], 0);
    expect(atGenesis.stack).toEqual([{ type: 'int', value: 0n }]);
    expect(atGenesis.block.seqno).toBe(0);
    const pk = await devnet.runGetMethod(faucet, 'get_public_key', []);
    expect((pk.stack[0] as { value: bigint }).value).toBe(BigInt('0x' + devnet.faucet.publicKey.toString('hex')));
    const missing = await devnet.runGetMethod(faucet, 'no_such_method', []);
    expect(missing.exitCode).toBe(11);
    const uninit = await devnet.runGetMethod(receiver, 'seqno', []);
    expect(uninit.exitCode).not.toBe(0);
  });

  it('emulates an external message without committing it', async () => {
    const before = await devnet.getAccountState(devnet.faucet.address);
    const boc = await faucetTransfer(devnet, await faucetSeqno(devnet), receiver, toNano('1'));
    const r = await devnet.emulateExternalMessage(Cell.fromBoc(boc)[0], { ignoreChksig: false });
    expect(r.accepted).toBe(true);
    expect(r.exitCode).toBe(0);
    expect(r.fees.gasFee > 0n).toBe(true);
    expect(r.fees.inFwdFee > 0n).toBe(true);
    expect(r.fees.fwdFee > 0n).toBe(true);
    expect(r.transaction.outMessagesCount).toBe(1);
    // Same message again: still seqno-valid, because nothing was committed.
    await devnet.produceBlock();
    expect((await devnet.getAccountState(devnet.faucet.address)).lastTransaction).toEqual(before.lastTransaction);
    await expect(devnet.sendMessage(boc)).resolves.toBeDefined();
    await devnet.produceBlock();
    // ignoreChksig lets an unsigned estimate through; a wrong signature without it is refused.
    const forged = await faucetTransfer(devnet, await faucetSeqno(devnet), receiver);
    const cell = Cell.fromBoc(forged)[0];
    const msg = loadMessage(cell.beginParse());
    const body = msg.body.beginParse();
    const tampered = beginCell().storeBuffer(Buffer.alloc(64)).storeSlice(body.skip(512)).endCell();
    const bad = beginCell()
      .storeUint(0b10, 2)
      .storeUint(0, 2)
      .storeAddress(devnet.faucet.address)
      .storeCoins(0)
      .storeBit(false)
      .storeBit(true)
      .storeRef(tampered)
      .endCell();
    expect((await devnet.emulateExternalMessage(bad, { ignoreChksig: true })).accepted).toBe(true);
    expect((await chainErrorOf(devnet.emulateExternalMessage(bad, { ignoreChksig: false }))).kind).toBe('refused');
  });
});

describe('emulateTrace', () => {
  it('runs the whole trace on a copy of the state, as sending then does, and commits nothing', async () => {
    const to = new Address(0, Buffer.alloc(32, 0x43));
    const before = await devnet.getAccountState(devnet.faucet.address);
    const boc = await faucetTransfer(devnet, await faucetSeqno(devnet), to, toNano('2'), 'traced');
    const message = Cell.fromBoc(boc)[0];
    const trace = await devnet.emulateTrace(message);
    expect(trace.unprocessedMessages).toBe(0);
    expect(trace.mcSeqno).toBe((await devnet.getMasterchainInfo()).last.seqno);
    expect(trace.transactions.map((t) => t.address.toRawString())).toEqual([devnet.faucet.address.toRawString(), to.toRawString()]);
    const [root, child] = trace.transactions;
    expect(root.tx.inMessage?.info.type).toBe('external-in');
    expect(root.tx.prevTransactionLt).toBe(before.lastTransaction!.lt);
    expect(root.stateBefore.balance).toBe(before.balance);
    // The child received exactly the message the root sent, after it.
    const sent = root.tx.outMessages.get(0)!;
    expect(child.tx.inMessage?.body.hash().equals(sent.body.hash())).toBe(true);
    expect(child.tx.lt > root.tx.lt).toBe(true);
    expect(child.stateBefore.balance).toBe(0n); // the sandbox's empty account (uninit) or none
    expect(child.stateAfter).toMatchObject({ status: 'uninit', balance: toNano('2') });

    await devnet.produceBlock();
    expect((await devnet.getAccountState(devnet.faucet.address)).lastTransaction).toEqual(before.lastTransaction);
    expect((await devnet.getAccountState(to)).status).toBe('nonexist');
    // Sent for real, the message makes the same two transactions with the same outcome.
    await devnet.sendMessage(boc);
    await devnet.produceBlock();
    const landed = await devnet.getAccountState(to);
    expect(landed.balance).toBe(child.stateAfter.balance);
    const real = await devnet.getTransaction(to, landed.lastTransaction!.lt);
    expect(real!.tx.inMessage?.body.hash().equals(child.tx.inMessage!.body.hash())).toBe(true);

    const refused = await chainErrorOf(devnet.emulateTrace(message)); // its seqno is spent now
    expect(refused.kind).toBe('refused');
  });
});

describe('config and libraries', () => {
  it('patches global_id per network and serves the mainnet config params', async () => {
    expect(devnet.globalId).toBe(-3);
    const p19 = await devnet.getConfigParam(19);
    expect(p19!.beginParse().loadInt(32)).toBe(-3);
    expect(await devnet.getConfigParam(34)).not.toBeNull();
    expect(await devnet.getConfigParam(12345)).toBeNull();
    const all = await devnet.getConfigAll();
    const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), all);
    expect(dict.keys().length).toBeGreaterThanOrEqual(30);
    const mainnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      expect((await mainnet.getConfigParam(19))!.beginParse().loadInt(32)).toBe(-239);
      expect((await mainnet.getMasterchainInfo()).init.rootHash.equals((await devnet.getMasterchainInfo()).init.rootHash)).toBe(false);
    } finally {
      await mainnet.close();
    }
  });

  it('serves genesis libraries by hash and omits unknown ones', async () => {
    const hash = Buffer.from(contractCodes.jettonWalletCodeHash, 'hex');
    const libs = await devnet.getLibraries([hash, Buffer.alloc(32, 1)]);
    expect(libs).toHaveLength(1);
    expect(libs[0].data.hash().equals(hash)).toBe(true);
  });
});
