import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import {
  WalletContractV1R1, WalletContractV1R2, WalletContractV1R3, WalletContractV2R1, WalletContractV2R2,
  WalletContractV3R1, WalletContractV3R2, WalletContractV4, WalletContractV5R1,
} from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { detectWallet, readWalletData } from '../src/wallets.js';

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
