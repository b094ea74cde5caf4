import { mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import type { Address } from '@ton/core';

/**
 * The devnet faucet: a real wallet v4r2 (subwallet 698983191) in workchain 0 whose key comes from this published
 * mnemonic. It is funded at genesis on every devnet, mainnet and testnet alike (same address on both), and
 * spending from it needs a signature like any wallet. Generated once with @ton/crypto mnemonicNew(24).
 * Never use this mnemonic outside a devnet: it is public.
 */
export const DEVNET_FAUCET_MNEMONIC: readonly string[] = Object.freeze([
  'budget',
  'donor',
  'ramp',
  'icon',
  'catch',
  'poverty',
  'swim',
  'swamp',
  'walk',
  'grit',
  'urban',
  'truck',
  'suffer',
  'simple',
  'rice',
  'security',
  'fancy',
  'inside',
  'slim',
  'effort',
  'spoon',
  'oppose',
  'borrow',
  'skirt',
]);

/** Genesis balance of the faucet: one billion TON. */
export const DEVNET_FAUCET_BALANCE = 1_000_000_000n * 1_000_000_000n;

export interface Faucet {
  mnemonic: string[];
  address: Address;
  publicKey: Buffer;
  /** 64-byte TON secret key (seed ‖ public key). */
  secretKey: Buffer;
  walletVersion: 'v4r2' | 'v5r1';
}

let cached: Promise<Faucet> | undefined;

export function devnetFaucet(): Promise<Faucet> {
  cached ??= (async () => {
    const keys = await mnemonicToPrivateKey([...DEVNET_FAUCET_MNEMONIC]);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    return {
      mnemonic: [...DEVNET_FAUCET_MNEMONIC],
      address: wallet.address,
      publicKey: keys.publicKey,
      secretKey: keys.secretKey,
      walletVersion: 'v4r2' as const,
    };
  })();
  return cached;
}
