import { createHash } from 'node:crypto';
import type { BlockIdExt } from './source.js';

/**
 * What a Catchain 2.0 (Simplex) validator signs for a masterchain block (ton_api.tl `consensus.*`; the node's
 * crypto/block/signature-set.cpp). A block is final when more than 2/3 of the weight sent a finalize vote for its
 * consensus candidate; the signature set a liteserver passes on is that certificate: the votes' signatures with the
 * session, the slot and the candidate's hash data. The candidate id is (slot, sha256 of the boxed hash data), so the
 * signature binds the block id (inside the hash data), the slot and the session; none of them can be swapped.
 */

/** TL constructor ids (crc32 of the schema lines of ton_api.tl). */
const ID = {
  candidateHashDataOrdinary: 0xe8f9bcdc,
  candidateHashDataEmpty: 0x72b4d933,
  candidateParent: 0x1a4b9af1,
  candidateWithoutParents: 0x22cbcca9,
  candidateId: 0xb691cd3f,
  finalizeVote: 0x40a7e105,
  dataToSign: 0xa8e33df8,
} as const;

export interface CandidateId {
  slot: number;
  hash: Buffer;
}

/**
 * consensus.CandidateHashData: an ordinary candidate (a collated block, with the hash of its collated data and its
 * parent candidate, if any), or an empty one (proposed by a leader that must not collate; it names the last real
 * block, which its finalization then finalizes, and its parent candidate).
 */
export type CandidateHashData =
  | { kind: 'ordinary'; block: BlockIdExt; collatedFileHash: Buffer; parent: CandidateId | null }
  | { kind: 'empty'; block: BlockIdExt; parent: CandidateId };

const BLOCK_ID_BYTES = 80;

function writeBlockIdBare(id: BlockIdExt): Buffer {
  const b = Buffer.alloc(BLOCK_ID_BYTES);
  b.writeInt32LE(id.workchain, 0);
  b.writeBigInt64LE(BigInt.asIntN(64, id.shard), 4);
  b.writeUInt32LE(id.seqno >>> 0, 12);
  id.rootHash.copy(b, 16);
  id.fileHash.copy(b, 48);
  return b;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const i32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32LE(n | 0);
  return b;
};
const candidateIdBare = (c: CandidateId) => Buffer.concat([i32(c.slot), c.hash]);

/** The boxed TL bytes of a candidate's hash data (what the set's `candidate` carries). */
export function writeCandidateHashData(c: CandidateHashData): Buffer {
  if (c.kind === 'empty') return Buffer.concat([u32(ID.candidateHashDataEmpty), writeBlockIdBare(c.block), candidateIdBare(c.parent)]);
  const parent = c.parent
    ? Buffer.concat([u32(ID.candidateParent), u32(ID.candidateId), candidateIdBare(c.parent)])
    : u32(ID.candidateWithoutParents);
  return Buffer.concat([u32(ID.candidateHashDataOrdinary), writeBlockIdBare(c.block), c.collatedFileHash, parent]);
}

class Reader {
  private at = 0;
  constructor(private readonly b: Buffer) {}
  take(n: number): Buffer {
    if (this.at + n > this.b.length) throw new Error('candidate hash data is truncated');
    const out = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  u32 = () => this.take(4).readUInt32LE(0);
  i32 = () => this.take(4).readInt32LE(0);
  blockId(): BlockIdExt {
    const b = this.take(BLOCK_ID_BYTES);
    return {
      workchain: b.readInt32LE(0),
      shard: b.readBigInt64LE(4),
      seqno: b.readUInt32LE(12),
      rootHash: Buffer.from(b.subarray(16, 48)),
      fileHash: Buffer.from(b.subarray(48, 80)),
    };
  }
  candidateId = (): CandidateId => ({ slot: this.i32(), hash: Buffer.from(this.take(32)) });
  get done() {
    return this.at === this.b.length;
  }
}

/** Reads a set's `candidate`: boxed CandidateHashData of either kind, nothing after it. Throws on anything else. */
export function readCandidateHashData(bytes: Buffer): CandidateHashData {
  const r = new Reader(bytes);
  const id = r.u32();
  let out: CandidateHashData;
  if (id === ID.candidateHashDataOrdinary) {
    const block = r.blockId();
    const collatedFileHash = Buffer.from(r.take(32));
    const parentId = r.u32();
    let parent: CandidateId | null = null;
    if (parentId === ID.candidateParent) {
      if (r.u32() !== ID.candidateId) throw new Error('candidate parent is not a consensus.candidateId');
      parent = r.candidateId();
    } else if (parentId !== ID.candidateWithoutParents) {
      throw new Error(`unknown consensus.CandidateParent constructor 0x${parentId.toString(16)}`);
    }
    out = { kind: 'ordinary', block, collatedFileHash, parent };
  } else if (id === ID.candidateHashDataEmpty) {
    out = { kind: 'empty', block: r.blockId(), parent: r.candidateId() };
  } else {
    throw new Error(`unknown consensus.CandidateHashData constructor 0x${id.toString(16)}`);
  }
  if (!r.done) throw new Error('candidate hash data has trailing bytes');
  return out;
}

/** TL `bytes` of a short value (under 254 bytes): length byte, data, zero padding to 4 bytes. */
function tlShortBytes(data: Buffer): Buffer {
  if (data.length >= 254) throw new Error('value too long for a short TL bytes field');
  const len = 1 + data.length;
  return Buffer.concat([Buffer.from([data.length]), data, Buffer.alloc((4 - (len % 4)) % 4)]);
}

/**
 * The bytes each validator's Ed25519 signature covers: boxed `consensus.dataToSign session_id data` whose data is the
 * boxed `consensus.simplex.finalizeVote` for candidate (slot, sha256(candidate)). `candidate` must already have been
 * read (readCandidateHashData): its bytes are hashed as sent, which equals the node's re-serialization only when
 * nothing trails them.
 */
export function simplexSigningPayload(sessionId: Buffer, slot: number, candidate: Buffer): Buffer {
  if (sessionId.length !== 32) throw new Error('session id must be 32 bytes');
  const hash = createHash('sha256').update(candidate).digest();
  const vote = Buffer.concat([u32(ID.finalizeVote), u32(ID.candidateId), candidateIdBare({ slot, hash })]);
  return Buffer.concat([u32(ID.dataToSign), sessionId, tlShortBytes(vote)]);
}

const sameId = (a: BlockIdExt, b: BlockIdExt) =>
  a.workchain === b.workchain &&
  BigInt.asIntN(64, a.shard) === BigInt.asIntN(64, b.shard) &&
  a.seqno === b.seqno &&
  a.rootHash.equals(b.rootHash) &&
  a.fileHash.equals(b.fileHash);

/**
 * The payload a simplex set's signatures must cover for them to sign block `to`, or the reason they cannot: the
 * candidate does not read, or names another block (a set of another block, replayed).
 */
export function simplexPayloadFor(
  to: BlockIdExt,
  sessionId: Buffer,
  slot: number,
  candidate: Buffer,
): { payload: Buffer } | { problem: string } {
  let data: CandidateHashData;
  try {
    data = readCandidateHashData(candidate);
  } catch (e) {
    return { problem: `malformed candidate: ${(e as Error).message}` };
  }
  if (!sameId(data.block, to))
    return {
      problem: `the candidate is of block (${data.block.workchain},${data.block.seqno}) ${data.block.rootHash.toString('hex').slice(0, 16)}…, not of this block`,
    };
  if (sessionId.length !== 32) return { problem: 'session id is not 32 bytes' };
  return { payload: simplexSigningPayload(sessionId, slot, candidate) };
}
