import type { Cell } from '@ton/core';

/** Standard wallet contracts, recognised by the representation hash of their code cell. */

type DataLayout = 'seqno' | 'seqno+wallet_id' | 'v5';

export type WalletName =
  | 'wallet v1 r1'
  | 'wallet v1 r2'
  | 'wallet v1 r3'
  | 'wallet v2 r1'
  | 'wallet v2 r2'
  | 'wallet v3 r1'
  | 'wallet v3 r2'
  | 'wallet v4 r1'
  | 'wallet v4 r2'
  | 'wallet v5 beta'
  | 'wallet v5 r1';

export interface WalletKind {
  /** Name as the API prints it, e.g. `wallet v4 r2`. */
  name: WalletName;
  /** Interface name as v3 `address_book.interfaces` lists it, e.g. `wallet_v4r2`. */
  interfaceName: string;
  version: 1 | 2 | 3 | 4 | 5;
  revision: number;
  layout: DataLayout;
}

const WALLETS: Record<string, WalletKind> = {
  a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c: {
    name: 'wallet v1 r1',
    interfaceName: 'wallet_v1r1',
    version: 1,
    revision: 1,
    layout: 'seqno',
  },
  d4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c: {
    name: 'wallet v1 r2',
    interfaceName: 'wallet_v1r2',
    version: 1,
    revision: 2,
    layout: 'seqno',
  },
  '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff': {
    name: 'wallet v1 r3',
    interfaceName: 'wallet_v1r3',
    version: 1,
    revision: 3,
    layout: 'seqno',
  },
  '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329': {
    name: 'wallet v2 r1',
    interfaceName: 'wallet_v2r1',
    version: 2,
    revision: 1,
    layout: 'seqno',
  },
  fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1: {
    name: 'wallet v2 r2',
    interfaceName: 'wallet_v2r2',
    version: 2,
    revision: 2,
    layout: 'seqno',
  },
  b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581: {
    name: 'wallet v3 r1',
    interfaceName: 'wallet_v3r1',
    version: 3,
    revision: 1,
    layout: 'seqno+wallet_id',
  },
  '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599': {
    name: 'wallet v3 r2',
    interfaceName: 'wallet_v3r2',
    version: 3,
    revision: 2,
    layout: 'seqno+wallet_id',
  },
  '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d': {
    name: 'wallet v4 r1',
    interfaceName: 'wallet_v4r1',
    version: 4,
    revision: 1,
    layout: 'seqno+wallet_id',
  },
  feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0: {
    name: 'wallet v4 r2',
    interfaceName: 'wallet_v4r2',
    version: 4,
    revision: 2,
    layout: 'seqno+wallet_id',
  },
  f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93: {
    name: 'wallet v5 beta',
    interfaceName: 'wallet_v5_beta',
    version: 5,
    revision: 0,
    layout: 'v5',
  },
  '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f': {
    name: 'wallet v5 r1',
    interfaceName: 'wallet_v5r1',
    version: 5,
    revision: 1,
    layout: 'v5',
  },
};

export function detectWallet(code: Cell | null): WalletKind | null {
  return code ? detectWalletByCodeHash(code.hash()) : null;
}

/** The same detection from the code hash alone (what an index stores). */
export function detectWalletByCodeHash(codeHash: Buffer): WalletKind | null {
  return WALLETS[codeHash.toString('hex')] ?? null;
}

export interface WalletData {
  seqno: number;
  walletId?: number;
  isSignatureAllowed?: boolean;
}

/** Reads seqno / wallet_id from the persistent data; null when the data does not fit the layout. */
export function readWalletData(kind: WalletKind, data: Cell | null): WalletData | null {
  if (!data) return null;
  try {
    const s = data.beginParse();
    switch (kind.layout) {
      case 'seqno':
        return { seqno: s.loadUint(32) };
      case 'seqno+wallet_id':
        return { seqno: s.loadUint(32), walletId: s.loadUint(32) };
      case 'v5':
        // toncenter reads v5 beta with the v5r1 layout (bit, int32, int32). Beta's data is really int33 seqno then an
        // 80-bit wallet id, so this yields the seqno's sign bit as is_signature_allowed (false for any live wallet),
        // the seqno itself, and the wallet id's leading int32, the network global id (-239 mainnet, -3 testnet).
        // Reported as toncenter does, since clients compare against it.
        return { isSignatureAllowed: s.loadBit(), seqno: s.loadInt(32), walletId: s.loadInt(32) };
    }
  } catch {
    return null;
  }
}

/** Highload wallets as tonlib knows them (highload-wallet r1/r2 and highload-wallet-v2 r1/r2 of SmartContractCode):
 * getExtendedAddressInformation shows them as wallet.highload.v1/v2 account states with the revision, while
 * getWalletInformation answers `wallet: false` for them (toncenter's wallet table has only v1–v5), as does any
 * highload v3 (unknown to tonlib too, so a raw account state). */
export interface HighloadKind {
  version: 1 | 2;
  revision: number;
}

const HIGHLOAD: Record<string, HighloadKind> = {
  d8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484: { version: 1, revision: 1 },
  '0dceed21269d66013e95b19fbb5c55a6f01adad40837baa8e521cde3a02aa46c': { version: 1, revision: 2 },
  '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1': { version: 2, revision: 1 },
  '203dd4f358adb49993129aa925cac39916b68a0e4f78d26e8f2c2b69eafa5679': { version: 2, revision: 2 },
};

export function detectHighload(code: Cell | null): HighloadKind | null {
  return code ? (HIGHLOAD[code.hash().toString('hex')] ?? null) : null;
}

/** v1 data: seqno:uint32 wallet_id:uint32 …; v2 data: wallet_id:uint32 last_cleaned:uint64 …. */
export function readHighloadData(kind: HighloadKind, data: Cell | null): { walletId: number; seqno?: number } | null {
  if (!data) return null;
  try {
    const s = data.beginParse();
    if (kind.version === 1) {
      const seqno = s.loadUint(32);
      return { seqno, walletId: s.loadUint(32) };
    }
    return { walletId: s.loadUint(32) };
  } catch {
    return null;
  }
}
