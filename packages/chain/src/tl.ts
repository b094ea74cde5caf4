import { createHash } from 'node:crypto';

/**
 * Small TL serializations the TON node uses for signatures and ids, shared by the devnet (which signs) and by
 * whoever verifies signatures served through ChainSource.
 */

/** TL constructor id of `ton.blockId root_cell_hash:int256 file_hash:int256 = ton.BlockId` (crc32 of the schema line). */
export const TL_TON_BLOCK_ID = 0xc50b6e70;
/** TL constructor id of `pub.ed25519 key:int256 = PublicKey`. */
export const TL_PUB_ED25519 = 0x4813b4c6;

function tlConstructor(id: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(id >>> 0);
  return b;
}

/** Bytes a validator signs for a block: TL `ton.blockId` of the block's root and file hashes. */
export function blockSigningPayload(rootHash: Buffer, fileHash: Buffer): Buffer {
  if (rootHash.length !== 32 || fileHash.length !== 32) throw new Error('block hashes must be 32 bytes');
  return Buffer.concat([tlConstructor(TL_TON_BLOCK_ID), rootHash, fileHash]);
}

/** node_id_short of a validator: sha256 of the TL-serialized `pub.ed25519` public key. */
export function nodeIdShort(ed25519PublicKey: Buffer): Buffer {
  if (ed25519PublicKey.length !== 32) throw new Error('ed25519 public key must be 32 bytes');
  return createHash('sha256')
    .update(Buffer.concat([tlConstructor(TL_PUB_ED25519), ed25519PublicKey]))
    .digest();
}
