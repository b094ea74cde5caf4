import { normalizedExternalMessageHash } from '@tongate/chain';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { Address, beginCell, Cell, comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, describe, expect, it } from 'vitest';
import { seededDevnet } from './devnet-fixture.js';
import { call, callError } from './harness.js';

const { ops, devnet, seed } = await seededDevnet();
afterAll(() => devnet.close());
const aliceSeed = seed.wallets.find((w) => w.version === 'v4r2')!;
const signer = signerFromSeed(Buffer.from(aliceSeed.secretSeedHex, 'hex'));
const alice = WalletContractV4.create({ workchain: 0, publicKey: signer.publicKey });
const nobody = new Address(0, Buffer.alloc(32, 0x33));

async function aliceSeqno(): Promise<number> {
  const { result } = await call(ops, 'runGetMethod', { address: alice.address.toString(), method: 'seqno', stack: [] });
  return Number(BigInt(result.stack[0][1]));
}

describe('send', () => {
  it('sendBoc accepts a signed transfer; replaying it is refused with 422 and the reason', async () => {
    const seqno = await aliceSeqno();
    const boc = await walletTransferBoc(alice, signer, seqno, [
      internal({ to: nobody, value: toNano('1'), bounce: false, body: comment('hi') }),
    ]);
    const { result } = await call(ops, 'sendBoc', { boc: boc.toString('base64') });
    expect(result).toEqual({ '@type': 'ok' });
    await devnet.produceBlock();
    expect(await aliceSeqno()).toBe(seqno + 1);
    const replay = await callError(ops, 'sendBoc', { boc: boc.toString('base64') });
    expect(replay.status).toBe(422);
    expect(replay.message.length).toBeGreaterThan(0);
  });

  it('sendBocReturnHash returns the message hash and the TEP-467 normalized hash', async () => {
    const seqno = await aliceSeqno();
    const boc = await walletTransferBoc(alice, signer, seqno, [internal({ to: nobody, value: 1n, bounce: false })]);
    const { result } = await call(ops, 'sendBocReturnHash', { boc: boc.toString('base64') });
    const cell = Cell.fromBoc(boc)[0]!;
    expect(result).toEqual({
      '@type': 'raw.extMessageInfo',
      hash: cell.hash().toString('base64'),
      hash_norm: normalizedExternalMessageHash(cell).toString('base64'),
    });
    await devnet.produceBlock();
  });

  it('bad BOCs are 422 naming boc', async () => {
    expect(await callError(ops, 'sendBoc', { boc: 'not base64!' })).toMatchObject({ status: 422, message: expect.stringMatching(/boc/) });
    const internalMsg = beginCell().storeUint(0, 1).endCell().toBoc().toString('base64');
    expect(await callError(ops, 'sendBoc', { boc: internalMsg })).toMatchObject({ status: 422, message: expect.stringMatching(/boc/) });
  });

  it('estimateFee emulates the external message and answers numeric fees', async () => {
    const seqno = await aliceSeqno();
    // Signed with a wrong key: the emulation skips the signature check (ignore_chksig), as wallets estimate before signing.
    const body = alice.createTransfer({ seqno, secretKey: Buffer.alloc(64), messages: [internal({ to: nobody, value: 1n })] });
    const { result } = await call(ops, 'estimateFee', {
      address: alice.address.toString(),
      body: body.toBoc().toString('base64'),
      ignore_chksig: true,
    });
    expect(result['@type']).toBe('query.fees');
    expect(result.source_fees['@type']).toBe('fees');
    for (const key of ['in_fwd_fee', 'storage_fee', 'gas_fee', 'fwd_fee']) expect(typeof result.source_fees[key]).toBe('number');
    expect(result.source_fees.in_fwd_fee).toBeGreaterThan(0);
    expect(result.source_fees.gas_fee).toBeGreaterThan(0);
    expect(Array.isArray(result.destination_fees)).toBe(true);
    expect(await callError(ops, 'estimateFee', { address: alice.address.toString(), body: '' })).toMatchObject({
      status: 422,
      message: 'body is required',
    });
  });
});

describe('run get-method', () => {
  it('runGetMethod by name and by numeric id, with block_id and last_transaction_id', async () => {
    const byName = (await call(ops, 'runGetMethod', { address: alice.address.toRawString(), method: 'seqno', stack: [] })).result;
    expect(byName).toMatchObject({ '@type': 'smc.runResult', exit_code: 0 });
    expect(typeof byName.gas_used).toBe('number');
    expect(byName.stack[0][0]).toBe('num');
    expect(byName.block_id['@type']).toBe('ton.blockIdExt');
    expect(byName.last_transaction_id.lt).not.toBe('0');
    const byId = (await call(ops, 'runGetMethod', { address: alice.address.toString(), method: '85143', stack: [] })).result;
    expect(byId.stack).toEqual(byName.stack);
    expect((await call(ops, 'runGetMethod', { address: alice.address.toString(), method: 85143, stack: [] })).result.stack).toEqual(
      byName.stack,
    );
  });

  it('stack input: a slice argument (tvm.Slice and cell object) to get_wallet_address on the jetton minter', async () => {
    const owner = beginCell().storeAddress(alice.address).endCell().toBoc().toString('base64');
    for (const entry of [
      ['tvm.Slice', owner],
      ['slice', { bytes: owner }],
    ]) {
      const { result } = await call(ops, 'runGetMethod', {
        address: seed.jetton.minter.toString(),
        method: 'get_wallet_address',
        stack: [entry],
      });
      expect(result.exit_code).toBe(0);
      expect(result.stack[0][0]).toBe('cell');
      const wallet = Cell.fromBase64(result.stack[0][1].bytes).beginParse().loadAddress();
      expect(wallet.equals(seed.jetton.wallets[0]!) || seed.jetton.wallets.some((w) => w.equals(wallet))).toBe(true);
    }
  });

  it('a failing get-method is still ok:true with its exit code; bad stacks are 422', async () => {
    const { result } = await call(ops, 'runGetMethod', { address: alice.address.toString(), method: 'no_such_method', stack: [] });
    expect(result.exit_code).not.toBe(0);
    expect(
      await callError(ops, 'runGetMethod', { address: alice.address.toString(), method: 'seqno', stack: [['num', 'zz']] }),
    ).toMatchObject({ status: 422 });
    expect(await callError(ops, 'runGetMethod', { address: alice.address.toString(), method: '', stack: [] })).toMatchObject({
      status: 422,
    });
  });

  it('runGetMethodStd speaks tonlib stack entries both ways', async () => {
    const { result } = await call(ops, 'runGetMethodStd', {
      address: alice.address.toString(),
      method: 'is_plugin_installed',
      stack: [
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '0' } },
        { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '12345' } },
      ],
    });
    expect(result).toMatchObject({ '@type': 'smc.runResult', exit_code: 0 });
    expect(result.stack).toEqual([{ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '0' } }]);
  });
});

describe('utils and config', () => {
  it('address and hash utils', async () => {
    const raw = alice.address.toRawString();
    const detected = (await call(ops, 'detectAddress', { address: raw })).result;
    expect(detected.raw_form).toBe(raw);
    expect(Address.parseFriendly(detected.bounceable.b64url).isTestOnly).toBe(true);
    const packed = (await call(ops, 'packAddress', { address: raw })).result;
    expect(packed).toBe(alice.address.toString({ urlSafe: true, bounceable: true, testOnly: true }));
    expect((await call(ops, 'packAddress', { address: raw }, 'mainnet')).result).toBe(
      alice.address.toString({ urlSafe: true, bounceable: true }),
    );
    expect((await call(ops, 'unpackAddress', { address: packed })).result).toBe(raw.toUpperCase().replace(/^0:/, '0:'));
    const hash = (await call(ops, 'detectHash', { hash: alice.address.hash.toString('hex') })).result;
    expect(hash.b64).toBe(alice.address.hash.toString('base64'));
    expect(await callError(ops, 'packAddress', { address: 'bad' })).toMatchObject({ status: 422 });
  });

  it('getConfigParam by param or config_id, exactly one', async () => {
    const { result } = await call(ops, 'getConfigParam', { param: 34 });
    expect(result['@type']).toBe('configInfo');
    expect(result.config['@type']).toBe('tvm.cell');
    expect(Cell.fromBase64(result.config.bytes).bits.length).toBeGreaterThan(0);
    expect((await call(ops, 'getConfigParam', { config_id: 34 })).result).toEqual(result);
    expect(await callError(ops, 'getConfigParam', { param: 1, config_id: 1 })).toMatchObject({ status: 422 });
    expect(await callError(ops, 'getConfigParam', {})).toMatchObject({ status: 422 });
  });

  it('getConfigAll and getLibraries', async () => {
    const { result } = await call(ops, 'getConfigAll');
    expect(result.config['@type']).toBe('tvm.cell');
    const hash = Buffer.alloc(32, 1).toString('hex');
    const libs = (await call(ops, 'getLibraries', { libraries: [hash] })).result;
    expect(libs).toEqual({ '@type': 'smc.libraryResult', result: [] });
    expect(await callError(ops, 'getLibraries', { libraries: ['xx'] })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/libraries/),
    });
  });
});
