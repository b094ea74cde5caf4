import type { Slice } from '@ton/core';

/** ExtBlkRef (end_lt, seqno, root_hash, file_hash): how blocks and states name other blocks. */
export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export { storeExtBlkRef } from '@tongate/chain';
export function loadExtBlkRef(s: Slice): ExtBlkRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}
