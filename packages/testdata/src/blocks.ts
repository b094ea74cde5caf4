/**
 * The whole mainnet blocks under `fixtures/liteserver/` with what was recorded about each: its id and root hash (the
 * hash its cell must have), the chain's file hash where one was recorded, and the files of expected values beside it.
 * Paths are relative to `fixtures/`.
 */
export interface RecordedBlockFixture {
  name: string;
  /** A single-root Block BOC. */
  file: string;
  workchain: number;
  /** The shard as the unsigned 64-bit prefix, in hex (TL carries it as a signed long). */
  shard: string;
  seqno: number;
  rootHash: string;
  /** The block's file hash on the chain; null when not recorded (the file is not necessarily the block's own bytes). */
  fileHash: string | null;
  /** Per account transactions, sorted transaction hashes, message descriptor counts (tongo's block test). */
  expected?: string;
  /** Imported messages that carry msg_envelope_v2 metadata: their source and created_lt. */
  inMsgsMetadata?: string;
  /** The block's parents (prev_ref) and after_merge. */
  parents?: string;
  /** The accounts' ShardAccounts before the block, with the transaction counts (tonutils-go's replay). */
  replay?: string;
  /** Counts the source test states: InMsgDescr and OutMsgDescr entries, account blocks, transactions; master_ref. */
  counts?: { inMsgDescr: number; outMsgDescr: number; accountBlocks: number; transactions: number; masterRefSeqno: number; genUtime: number };
}

const tongo = (n: number) => `liteserver/tongo/tlb/block-${n}`;

export const recordedBlocks: readonly RecordedBlockFixture[] = [
  { name: 'tongo block-1', file: `${tongo(1)}/block.bin`, workchain: 0, shard: '8000000000000000', seqno: 30816553, rootHash: '8d544c9d088891f4d9e368d4dd8f53496652ed31079d6f5dafd2643d25e7cae1', fileHash: null, expected: `${tongo(1)}/block.expected.json` },
  { name: 'tongo block-2', file: `${tongo(2)}/block.bin`, workchain: 0, shard: '8000000000000000', seqno: 40484416, rootHash: '3e0ec29a7d4a6350193ecc61b3b188aa8ed918fe2c7039735d24e65c18568bbd', fileHash: null, expected: `${tongo(2)}/block.expected.json` },
  { name: 'tongo block-3', file: `${tongo(3)}/block.bin`, workchain: 0, shard: '8000000000000000', seqno: 40484438, rootHash: '3631b40a3410297d85d104d3e5f1f0c54a5fb23c5aca63834fb1c24d8ba4a123', fileHash: null, expected: `${tongo(3)}/block.expected.json` },
  { name: 'tongo block-4', file: `${tongo(4)}/block.bin`, workchain: 0, shard: '0d83800000000000', seqno: 4168601, rootHash: 'ee04f0f82bf1b7f96f441074fb7d6e2b1349b471468c27ff45b149173f8a733b', fileHash: null, expected: `${tongo(4)}/block.expected.json` },
  { name: 'tongo block-5', file: `${tongo(5)}/block.bin`, workchain: -1, shard: '8000000000000000', seqno: 17734191, rootHash: '04c2c26fa7f6f84255d142ff2c4f98666db56879911fc2e83b3a284f20ca48ec', fileHash: null, expected: `${tongo(5)}/block.expected.json` },
  { name: 'tongo block-6', file: `${tongo(6)}/block.bin`, workchain: 0, shard: 'a000000000000000', seqno: 54302208, rootHash: '563d90f5180f129d2e1d5eea6794fecdce9cac3e3b000cd4876068fc5ad1e572', fileHash: null, inMsgsMetadata: `${tongo(6)}/in_msgs_metadata.expected.json` },
  { name: 'tongo block-7', file: `${tongo(7)}/block.bin`, workchain: 0, shard: 'a000000000000000', seqno: 54302203, rootHash: '001b96c7f9012c496c0b1d4c19a91ae9947eab7d519041157c7030fe81f2596d', fileHash: null, inMsgsMetadata: `${tongo(7)}/in_msgs_metadata.expected.json` },
  { name: 'tongo raw-13516764', file: 'liteserver/tongo/ton/raw-13516764.bin', workchain: 0, shard: 'c000000000000000', seqno: 13516764, rootHash: 'f2bd9e70513e9ad395510c37fa075aad0993a0566efd5ec20f3180e4e8e8d68f', fileHash: null, parents: 'liteserver/tongo/ton/raw-13516764.expected-parents.json' },
  {
    name: 'tonutils-go 71398501',
    file: 'liteserver/tonutils-go/tlb/block_0_8000000000000000_71398501.boc',
    workchain: 0,
    shard: '8000000000000000',
    seqno: 71398501,
    rootHash: '244d0a2f58561995bd57943b0db945cb9fa6a5181d501efc334636aa4401c241',
    fileHash: 'dc11d51de6fd112cba79d7a7a1d8efaa782aeaf78a2d0419ab999441488d0f9f',
    replay: 'liteserver/tonutils-go/tvm/tvm_replay_fat_block_66519406.subset.json',
    counts: { inMsgDescr: 269, outMsgDescr: 57, accountBlocks: 234, transactions: 269, masterRefSeqno: 66519401, genUtime: 1778681725 },
  },
];
