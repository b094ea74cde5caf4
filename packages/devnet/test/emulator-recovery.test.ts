import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address, Cell, getMethodId, toNano, type TupleItem } from '@ton/core';

import { WalletContractV4 } from '@ton/ton';
import { isChainError } from '@tongate/chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, type Devnet } from '../src/index.js';
import { EmulatorFault, isEmulatorFault, type DevnetExecutor } from '../src/executor.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';
import { fixturePath } from '@tongate/testdata';

/**
 * Inputs past the stack limits make the sandbox's wasm emulator trap, and a trapped instance fails every later
 * get-method, fee estimate and transfer of the network until it is replaced. The chain-level caps refuse such stacks, so
 * these tests feed the emulator directly, under the caps, to prove the second line of defence: the instance is
 * replaced and the network keeps working.
 */
describe('the emulator after a trap', () => {
  let devnet: Devnet;
  let executor: DevnetExecutor;
  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    executor = (devnet as unknown as { getMethods: { bc: { executor: DevnetExecutor } } }).getMethods.bc.executor;
  });
  afterAll(() => devnet.close());

  const someone = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 9) }).address;
  const flat = (n: number): TupleItem[] => Array.from({ length: n }, (_, i) => ({ type: 'int', value: BigInt(i) }));

  it('is refused at the chain boundary before it reaches the emulator', async () => {
    const err = await devnet.runGetMethod(devnet.faucet.address, 'seqno', flat(1000)).catch((e: unknown) => e);
    expect(isChainError(err) && err.kind === 'invalid').toBe(true);
    expect((err as Error).message).toMatch(/^stack: /);
    expect(executor.restarts).toBe(0);
  });

  it('is replaced after a trap, and get-methods, fee estimates and transfers work again', async () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const config = (devnet as unknown as { getMethods: { bc: { configBase64: string } } }).getMethods.bc.configBase64;
    const poison = executor.runGetMethod({
      code: wallet.init.code,
      data: wallet.init.data,
      methodId: 85143,
      stack: flat(1000),
      config,
      verbosity: 'short',
      libs: undefined,
      address: devnet.faucet.address,
      unixTime: Math.floor(Date.now() / 1000),
      balance: 1n,
      randomSeed: Buffer.alloc(32),
      gasLimit: 1_000_000n,
      debugEnabled: false,
    });
    await expect(poison).rejects.toBeInstanceOf(EmulatorFault);
    // Replaced, tried once more on the fresh emulator (a fault may be the previous call's), replaced again.
    expect(executor.restarts).toBe(2);

    expect(await faucetSeqno(devnet)).toBe(0);
    const transfer = await faucetTransfer(devnet, 0, someone, toNano('3'));
    const fee = await devnet.emulateExternalMessage(Cell.fromBoc(transfer)[0], { ignoreChksig: false });
    expect(fee).toBeDefined();
    await devnet.sendMessage(transfer);
    await devnet.settle();
    expect((await devnet.getAccountState(someone)).balance).toBeGreaterThan(toNano('2.9'));
    expect(await faucetSeqno(devnet)).toBe(1);
  });

  it('survives a get-method whose deep result breaks the emulator for the next caller', async () => {
    // The recorded mainnet elector: participant_list_extended returns 316 participants as a deep list, and the
    // sandbox's emulator traps on the call after it. That next call is retried on a fresh emulator, not failed.
    const fixtures = fixturePath('accounts', 'elector');
    const read = (name: string) => Cell.fromBase64(readFileSync(path.join(fixtures, name), 'utf8').trim());
    const electorConfig = read('config.boc.b64');
    const restartsBefore = executor.restarts;
    for (let i = 0; i < 3; i++) {
      const deep = await executor.runGetMethod({
        code: read('code.boc.b64'),
        data: read('data.boc.b64'),
        methodId: getMethodId('participant_list_extended'),
        stack: [],
        config: electorConfig.toBoc().toString('base64'),
        verbosity: 'short',
        address: Address.parseRaw(`-1:${'3'.repeat(64)}`),
        unixTime: 1700679000,
        balance: 1n,
        randomSeed: Buffer.alloc(32),
        gasLimit: 100_000_000n,
        debugEnabled: false,
      });
      expect(deep.output.success).toBe(true);
      // Innocent callers after it are answered.
      expect(await faucetSeqno(devnet)).toBeGreaterThanOrEqual(0);
      expect((await devnet.runGetMethod(devnet.faucet.address, 'get_public_key', [])).exitCode).toBe(0);
    }
    // The emulator did break (and was replaced) behind those answers.
    expect(executor.restarts).toBeGreaterThan(restartsBefore);
  });

  it('tells emulator faults from contract failures', () => {
    expect(isEmulatorFault(4166792)).toBe(true);
    expect(isEmulatorFault(new RangeError('Maximum call stack size exceeded'))).toBe(true);
    expect(isEmulatorFault(new Error('memory access out of bounds'))).toBe(true);
    expect(isEmulatorFault(new Error('get-method emulation failed: {"fail":true}'))).toBe(false);
  });
});
