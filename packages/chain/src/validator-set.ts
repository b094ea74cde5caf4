import { createHash } from 'node:crypto';
import { Dictionary, type Cell, type Slice } from '@ton/core';

/**
 * Validator sets as tonlib reads them (crypto/block/mc-config.cpp do_compute_validator_set, block.cpp
 * compute_validator_set_hash): the masterchain block is signed by the main validators of the set in force (config
 * param 34), possibly shuffled (config param 28), and its header names that subset by a crc32c hash. The liteserver
 * checks signatures with them; the devnet names its validator set in its block headers with them.
 */

export interface ValidatorDescr {
  publicKey: Buffer;
  weight: bigint;
  /** Zero when the descriptor has no ADNL address (validator#53). */
  adnlAddr: Buffer;
}

export interface ValidatorSet {
  utimeSince: number;
  utimeUntil: number;
  /** How many validators, from the head of the list, make the masterchain's set. */
  main: number;
  list: ValidatorDescr[];
  totalWeight: bigint;
}

const ED25519_PUBKEY_TAG = 0x8e81278a;
const ZERO32 = Buffer.alloc(32);

function loadValidatorDescr(s: Slice): ValidatorDescr {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw new Error(`unknown ValidatorDescr tag 0x${tag.toString(16)}`);
  if (s.loadUint(32) !== ED25519_PUBKEY_TAG) throw new Error('validator key is not an ed25519 key');
  const publicKey = s.loadBuffer(32);
  const weight = s.loadUintBig(64);
  return { publicKey, weight, adnlAddr: tag === 0x73 ? s.loadBuffer(32) : ZERO32 };
}

const DESCR_VALUE = {
  serialize: () => {
    throw new Error('read only');
  },
  parse: loadValidatorDescr,
};

/** ValidatorSet (validators#11 / validators_ext#12, config params 32-37), with tonlib's consistency rules. */
export function parseValidatorSet(cell: Cell): ValidatorSet {
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`unknown ValidatorSet tag 0x${tag.toString(16)}`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (main < 1 || main > total) throw new Error(`validator set has main = ${main} of ${total}`);
  const declaredWeight = tag === 0x12 ? s.loadUintBig(64) : null;
  // validators#11 keeps a non-empty Hashmap inline; validators_ext#12 a HashmapE.
  const dict =
    tag === 0x11
      ? Dictionary.loadDirect(Dictionary.Keys.Uint(16), DESCR_VALUE, s)
      : Dictionary.load(Dictionary.Keys.Uint(16), DESCR_VALUE, s);
  const list: ValidatorDescr[] = [];
  for (let i = 0; i < total; i++) {
    const v = dict.get(i);
    if (!v) throw new Error(`validator set lacks validator #${i} of ${total}`);
    list.push(v);
  }
  if (dict.size !== total) throw new Error(`validator set lists ${dict.size} validators, declares ${total}`);
  const totalWeight = list.reduce((sum, v) => sum + v.weight, 0n);
  if (declaredWeight !== null && declaredWeight !== totalWeight)
    throw new Error(`validator set declares total weight ${declaredWeight}, its validators weigh ${totalWeight}`);
  return { utimeSince, utimeUntil, main, list, totalWeight };
}

/** Whether masterchain validators are shuffled (catchain_config_new#c2 shuffle_mc_validators); false without param 28. */
export function parseShuffleMcValidators(cell: Cell | null): boolean {
  if (!cell) return false;
  const s = cell.beginParse();
  const tag = s.loadUint(8);
  if (tag === 0xc1) return false;
  if (tag !== 0xc2) throw new Error(`unknown CatchainConfig tag 0x${tag.toString(16)}`);
  if (s.loadUint(7) !== 0) throw new Error('CatchainConfig flags must be 0');
  return s.loadBit();
}

const MC_SHARD = 0x8000000000000000n;

/**
 * The node's ValidatorSetPRNG: sha512 over (seed = 0, shard, workchain, cc_seqno) gives 8 big-endian 64-bit numbers,
 * then the seed is incremented (as a big-endian number) and hashed again.
 */
class ValidatorSetPrng {
  private readonly data = Buffer.alloc(48);
  private hash = Buffer.alloc(0);
  private pos = 0;

  constructor(workchain: number, shard: bigint, ccSeqno: number) {
    this.data.writeBigUInt64BE(BigInt.asUintN(64, shard), 32);
    this.data.writeInt32BE(workchain, 40);
    this.data.writeUInt32BE(ccSeqno >>> 0, 44);
  }

  private next(): bigint {
    if (this.pos === 0 || this.pos === 8) {
      this.hash = createHash('sha512').update(this.data).digest();
      for (let i = 31; i >= 0; i--) {
        this.data[i] = (this.data[i] + 1) & 0xff;
        if (this.data[i] !== 0) break;
      }
      this.pos = 0;
    }
    return this.hash.readBigUInt64BE(8 * this.pos++);
  }

  /** A number in 0 .. range-1: the high 64 bits of range × next. */
  ranged(range: number): number {
    return Number((BigInt(range) * this.next()) >> 64n);
  }
}

/** The validators that sign masterchain blocks of catchain session `ccSeqno`: the set's first `main`, shuffled when config 28 says so. */
export function masterchainValidators(set: ValidatorSet, shuffle: boolean, ccSeqno: number): ValidatorDescr[] {
  const count = Math.min(set.main, set.list.length);
  if (!shuffle) return set.list.slice(0, count);
  const prng = new ValidatorSetPrng(-1, MC_SHARD, ccSeqno);
  const idx = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const j = prng.ranged(i + 1);
    idx[i] = idx[j];
    idx[j] = i;
  }
  return idx.map((i) => set.list[i]);
}

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32c(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC32C_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** gen_validator_list_hash_short of a block signed by `nodes` in session `ccSeqno` (the node's test0.validatorSet layout). */
export function validatorSetHashShort(ccSeqno: number, nodes: readonly ValidatorDescr[]): number {
  const b = Buffer.alloc(12 + nodes.length * 72);
  b.writeInt32LE(-1877581587, 0);
  b.writeInt32LE(ccSeqno | 0, 4);
  b.writeUInt32LE(nodes.length, 8);
  nodes.forEach((n, i) => {
    const at = 12 + i * 72;
    n.publicKey.copy(b, at);
    b.writeBigInt64LE(BigInt.asIntN(64, n.weight), at + 32);
    n.adnlAddr.copy(b, at + 40);
  });
  return crc32c(b);
}
