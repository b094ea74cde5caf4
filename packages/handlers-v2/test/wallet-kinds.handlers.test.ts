import { randomBytes } from 'node:crypto';
import { beginCell, type Cell, contractAddress, internal, toNano } from '@ton/core';
import { WalletContractV4, WalletContractV5Beta } from '@ton/ton';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { afterAll, describe, expect, it } from 'vitest';
import { HIGHLOAD_CODES } from './contract-codes.js';
import { seededDevnet } from './devnet-fixture.js';
import { call } from './harness.js';

/**
 * Highload and v5 beta wallets deployed on the devnet (the faucet sends each its state init), then read back through
 * getWalletInformation and getExtendedAddressInformation.
 */

const { devnet, ops } = await seededDevnet();
afterAll(() => devnet.close());

const publicKey = randomBytes(32);
const walletId = 0x12345 + (randomBytes(2).readUInt16BE() << 8);
const hlSeqno = 17;
// highload v1: seqno:uint32 wallet_id:uint32 public_key:bits256; v2: wallet_id:uint32 last_cleaned:uint64 public_key old_queries.
const v1Data = beginCell().storeUint(hlSeqno, 32).storeUint(walletId, 32).storeBuffer(publicKey).endCell();
const v2Data = beginCell().storeUint(walletId, 32).storeUint(0, 64).storeBuffer(publicKey).storeBit(0).endCell();
const highloads = {
  v1r1: { code: HIGHLOAD_CODES.v1r1, data: v1Data },
  v1r2: { code: HIGHLOAD_CODES.v1r2, data: v1Data },
  v2r1: { code: HIGHLOAD_CODES.v2r1, data: v2Data },
  v2r2: { code: HIGHLOAD_CODES.v2r2, data: v2Data },
};
const address = (init: { code: Cell; data: Cell }) => contractAddress(0, init);
const v5beta = WalletContractV5Beta.create({ publicKey, walletId: { networkGlobalId: devnet.globalId, subwalletNumber: 5 } });

async function faucetDeploy(inits: { code: Cell; data: Cell }[]) {
  const faucet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const seqno = await devnet.runGetMethod(faucet.address, 'seqno', []);
  expect(seqno.exitCode).toBe(0);
  const messages = inits.map((init) => internal({ to: address(init), value: toNano('1'), bounce: false, init }));
  const boc = await walletTransferBoc(
    faucet,
    signerFromSeed(devnet.faucet.secretKey),
    Number((seqno.stack[0] as { value: bigint }).value),
    messages,
  );
  await devnet.sendMessage(boc);
  await devnet.settle();
}

await faucetDeploy(Object.values(highloads));
// The beta's code is a library cell the devnet does not publish: its compute phase fails, but the state init is
// still installed, which is all the wallet readers look at.
await faucetDeploy([v5beta.init]);

describe('highload wallets', () => {
  it('have the code hashes of the wallet table', async () => {
    const { detectHighload } = await import('@tongate/contracts');
    expect(detectHighload(HIGHLOAD_CODES.v1r1)).toEqual({ version: 1, revision: 1 });
    expect(detectHighload(HIGHLOAD_CODES.v1r2)).toEqual({ version: 1, revision: 2 });
    expect(detectHighload(HIGHLOAD_CODES.v2r1)).toEqual({ version: 2, revision: 1 });
    expect(detectHighload(HIGHLOAD_CODES.v2r2)).toEqual({ version: 2, revision: 2 });
  });

  for (const [name, init] of Object.entries(highloads)) {
    const version = name.startsWith('v1') ? 1 : 2;
    const revision = Number(name.at(-1));

    it(`${name}: getWalletInformation says wallet: false with no wallet fields, as toncenter does`, async () => {
      const { result } = await call(ops, 'getWalletInformation', { address: address(init).toString() });
      expect(result.account_state).toBe('active');
      expect(result.wallet).toBe(false);
      expect(result).not.toHaveProperty('wallet_type');
      expect(result).not.toHaveProperty('seqno');
      expect(result).not.toHaveProperty('wallet_id');
    });

    it(`${name}: getExtendedAddressInformation parses the highload state with its revision`, async () => {
      const { result } = await call(ops, 'getExtendedAddressInformation', { address: address(init).toRawString() });
      expect(result.revision).toBe(revision);
      expect(result.account_state).toEqual(
        version === 1
          ? { '@type': 'wallet.highload.v1.accountState', wallet_id: walletId, seqno: hlSeqno }
          : { '@type': 'wallet.highload.v2.accountState', wallet_id: walletId },
      );
    });
  }
});

describe('wallet v5 beta', () => {
  it('is a wallet; seqno, wallet_id and is_signature_allowed are read with the v5 layout as toncenter does', async () => {
    const state = await devnet.getAccountState(v5beta.address);
    expect(state.status).toBe('active');
    expect(state.code!.hash().equals(v5beta.init.code.hash())).toBe(true);
    const { result } = await call(ops, 'getWalletInformation', { address: v5beta.address.toString() });
    expect(result.wallet).toBe(true);
    expect(result.wallet_type).toBe('wallet v5 beta');
    expect(result.seqno).toBe(0);
    // The beta's wallet id starts with the network global id; toncenter's int32 read returns just that.
    expect(result.wallet_id).toBe(devnet.globalId);
    // ...and its first bit is the int33 seqno's sign bit, 0 for a live wallet.
    expect(result.is_signature_allowed).toBe(false);
  });
});
