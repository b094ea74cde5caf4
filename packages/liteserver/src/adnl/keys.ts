import {
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { TL_PUB_ED25519 } from '@tongate/chain';

/**
 * ADNL keys over node:crypto. Peers are known by ed25519 keys; the channel secret is x25519 over the same keys
 * mapped to Montgomery form (RFC 7748 / libsodium's ed25519 → curve25519 conversion).
 */

const P = 2n ** 255n - 19n;
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
const X25519_PKCS8 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const X25519_SPKI = Buffer.from('302a300506032b656e032100', 'hex');

export interface Ed25519KeyPair {
  /** 32-byte private seed. */
  seed: Buffer;
  publicKey: Buffer;
}

export function ed25519FromSeed(seed: Buffer): Ed25519KeyPair {
  if (seed.length !== 32) throw new Error('an ed25519 seed is 32 bytes');
  const priv = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  return { seed, publicKey: Buffer.from(spki.subarray(spki.length - 32)) };
}

export function randomEd25519(): Ed25519KeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  return ed25519FromSeed(Buffer.from(pkcs8.subarray(pkcs8.length - 32)));
}

/** ADNL short id of a public key: sha256 of the boxed TL `pub.ed25519`. */
export function adnlKeyId(ed25519PublicKey: Buffer): Buffer {
  const tl = Buffer.alloc(36);
  tl.writeUInt32LE(TL_PUB_ED25519, 0);
  ed25519PublicKey.copy(tl, 4);
  return createHash('sha256').update(tl).digest();
}

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  b %= P;
  while (e > 0n) {
    if (e & 1n) r = (r * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return r;
}

/** u = (1 + y) / (1 − y) mod p for an ed25519 public key y (little-endian, sign bit cleared). */
function montgomeryPublic(ed25519PublicKey: Buffer): KeyObject {
  if (ed25519PublicKey.length !== 32) throw new Error('an ed25519 public key is 32 bytes');
  const le = Buffer.from(ed25519PublicKey);
  le[31] &= 0x7f;
  const y = BigInt('0x' + Buffer.from(le).reverse().toString('hex'));
  if (y >= P || y === 1n) throw new Error('not a valid ed25519 public key');
  const u = ((1n + y) * modPow((1n - y + P) % P, P - 2n)) % P;
  const raw = Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse();
  return createPublicKey({ key: Buffer.concat([X25519_SPKI, raw]), format: 'der', type: 'spki' });
}

/** The x25519 scalar of an ed25519 seed: the first half of sha512(seed) (clamped by x25519 itself). */
function montgomeryPrivate(seed: Buffer): KeyObject {
  const scalar = createHash('sha512').update(seed).digest().subarray(0, 32);
  return createPrivateKey({ key: Buffer.concat([X25519_PKCS8, scalar]), format: 'der', type: 'pkcs8' });
}

/** The ADNL shared secret between our ed25519 key and a peer's ed25519 public key. */
export function adnlSharedSecret(ours: Ed25519KeyPair, peerPublicKey: Buffer): Buffer {
  return diffieHellman({ privateKey: montgomeryPrivate(ours.seed), publicKey: montgomeryPublic(peerPublicKey) });
}

export const randomId = (bytes = 32) => randomBytes(bytes);
