import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import {
  WalletContractV1R1,
  WalletContractV1R2,
  WalletContractV1R3,
  WalletContractV2R1,
  WalletContractV2R2,
  WalletContractV3R1,
  WalletContractV3R2,
  WalletContractV4,
  WalletContractV5R1,
} from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { beginCell, Cell } from '@ton/core';
import { detectHighload, detectWallet, readHighloadData, readWalletData } from '../src/index.js';

describe('wallet detection by code hash', async () => {
  const { publicKey } = await mnemonicToPrivateKey(await mnemonicNew());
  const cases = [
    ['wallet v1 r1', WalletContractV1R1.create({ workchain: 0, publicKey })],
    ['wallet v1 r2', WalletContractV1R2.create({ workchain: 0, publicKey })],
    ['wallet v1 r3', WalletContractV1R3.create({ workchain: 0, publicKey })],
    ['wallet v2 r1', WalletContractV2R1.create({ workchain: 0, publicKey })],
    ['wallet v2 r2', WalletContractV2R2.create({ workchain: 0, publicKey })],
    ['wallet v3 r1', WalletContractV3R1.create({ workchain: 0, publicKey, walletId: 42 })],
    ['wallet v3 r2', WalletContractV3R2.create({ workchain: 0, publicKey, walletId: 42 })],
    ['wallet v4 r2', WalletContractV4.create({ workchain: 0, publicKey, walletId: 42 })],
    ['wallet v5 r1', WalletContractV5R1.create({ workchain: 0, publicKey })],
  ] as const;

  for (const [name, wallet] of cases) {
    it(`recognises ${name} and reads its initial data`, () => {
      const kind = detectWallet(wallet.init.code);
      expect(kind?.name).toBe(name);
      const data = readWalletData(kind!, wallet.init.data);
      expect(data?.seqno).toBe(0);
      if (kind!.version === 3 || kind!.version === 4) expect(data?.walletId).toBe(42);
      if (kind!.version === 5) expect(data?.isSignatureAllowed).toBe(true);
    });
  }

  it('does not recognise other code', () => {
    expect(detectWallet(null)).toBeNull();
    expect(detectWallet(cases[0][1].init.data)).toBeNull();
  });
});

describe('highload wallet detection', () => {
  // tonlib's highload-wallet-v2-r2 code (SmartContractCode.cpp), the most common highload wallet on chain.
  const v2r2 =
    'te6ccgEBCQEA6QABFP8A9KQT9LzyyAsBAgEgAgMCAUgEBQHu8oMI1xgg0x/TP/gjqh9TILnyY+1E0NMf0z/T//QE0VNggED0Dm+hMfJgUXO68qIH+QFUEIf5EPKjAvQE0fgAf44YIYAQ9HhvoW+hIJgC0wfUMAH7AJEy4gGz5luDJaHIQDSAQPRDiuYxyBLLHxPLP8v/9ADJ7VQIAATQMAIBIAYHABe9nOdqJoaa+Y64X/wAQb5fl2omhpj5jpn+n/mPoCaKkQQCB6BzfQmMktv8ld0fFAA4IIBA9JZvoW+hMlEQlDBTA7neIJMzNgGSMjDisw==';
  it('recognises highload v2 r2 and reads its wallet_id', () => {
    const kind = detectHighload(Cell.fromBase64(v2r2));
    expect(kind).toEqual({ version: 2, revision: 2 });
    const data = beginCell().storeUint(77, 32).storeUint(0, 64).storeBuffer(Buffer.alloc(32)).storeBit(0).endCell();
    expect(readHighloadData(kind!, data)).toEqual({ walletId: 77 });
    expect(detectWallet(Cell.fromBase64(v2r2))).toBeNull();
  });
});
