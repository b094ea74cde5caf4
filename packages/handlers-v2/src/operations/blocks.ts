import { type BlockIdExt, type BlockRef, ChainError, type ChainSource } from '@tongate/chain';
import { ApiError } from '../api-error.js';
import { b64, formatBlockIdExt } from '../format.js';
import { type Deps, operation } from './common.js';

/** The parameters that name one block: its coordinates, and optionally the hashes it must have. */
export interface BlockQuery extends BlockRef {
  root_hash?: Buffer;
  file_hash?: Buffer;
}

/** Resolves a block by coordinates; when `root_hash` / `file_hash` are given they must match it. */
export async function resolveBlock(chain: ChainSource, query: BlockQuery): Promise<BlockIdExt> {
  const ref: BlockRef = { workchain: query.workchain, shard: query.shard, seqno: query.seqno };
  const { root_hash: rootHash, file_hash: fileHash } = query;
  const id = await chain.lookupBlock(ref);
  if ((rootHash && !rootHash.equals(id.rootHash)) || (fileHash && !fileHash.equals(id.fileHash))) {
    throw new ChainError(
      'not_found',
      `block (${ref.workchain},${ref.shard},${ref.seqno}) has different root_hash/file_hash than requested`,
    );
  }
  return id;
}

export function blockOperations(deps: Deps) {
  const { chain } = deps;
  const shards = operation<'getShards'>(deps, async ({ query: { seqno } }) => {
    return { '@type': 'blocks.shards', shards: (await chain.getShards(seqno)).map(formatBlockIdExt) };
  });
  return {
    getMasterchainInfo: operation<'getMasterchainInfo'>(deps, async () => {
      const info = await chain.getMasterchainInfo();
      return {
        '@type': 'blocks.masterchainInfo',
        last: formatBlockIdExt(info.last),
        state_root_hash: b64(info.stateRootHash),
        init: formatBlockIdExt(info.init),
      };
    }),

    getMasterchainBlockSignatures: operation<'getMasterchainBlockSignatures'>(deps, async ({ query }) => {
      const sigs = await chain.getMasterchainBlockSignatures(query.seqno);
      const id = formatBlockIdExt(sigs.id);
      const signatures = sigs.signatures.map((s) => ({
        '@type': 'blocks.signature' as const,
        node_id_short: b64(s.nodeIdShort),
        signature: b64(s.signature),
      }));
      if (sigs.simplex) {
        const { sessionId, slot, candidate } = sigs.simplex;
        return { '@type': 'blocks.blockSignatures.simplex', id, signatures, session_id: b64(sessionId), slot, candidate: b64(candidate) };
      }
      return { '@type': 'blocks.blockSignatures', id, signatures };
    }),

    getShardBlockProof: operation<'getShardBlockProof'>(deps, async ({ query }) => {
      const proof = await chain.getShardBlockProof(
        { workchain: query.workchain, shard: query.shard, seqno: query.seqno },
        query.from_seqno || undefined,
      );
      return {
        '@type': 'blocks.shardBlockProof',
        from: formatBlockIdExt(proof.from),
        mc_id: formatBlockIdExt(proof.mcId),
        links: proof.links.map((l) => ({ '@type': 'blocks.shardBlockLink', id: formatBlockIdExt(l.id), proof: b64(l.proof) })),
        mc_proof: proof.mcProof.map((p) => ({
          '@type': 'blocks.blockLinkBack',
          to_key_block: p.toKeyBlock,
          from: formatBlockIdExt(p.from),
          to: formatBlockIdExt(p.to),
          dest_proof: b64(p.destProof),
          proof: b64(p.proof),
          state_proof: b64(p.stateProof),
        })),
      };
    }),

    getConsensusBlock: operation<'getConsensusBlock'>(deps, async () => {
      const info = await chain.getMasterchainInfo();
      return { '@type': 'ext.blocks.consensusBlock', consensus_block: info.last.seqno, timestamp: Math.floor(Date.now() / 1000) };
    }),

    lookupBlock: operation<'lookupBlock'>(deps, async ({ query }) => {
      const { workchain, shard, seqno, lt, unixtime } = query;
      if (lt !== undefined && lt < 0n) throw new ApiError(422, 'lt: should be non-negative');
      const given = [seqno, lt, unixtime].filter((v) => v !== undefined).length;
      if (given !== 1) throw new ApiError(422, 'exactly one of seqno, lt, unixtime should be specified');
      const id =
        seqno !== undefined
          ? await chain.lookupBlock({ workchain, shard, seqno })
          : lt !== undefined
            ? await chain.lookupBlock({ workchain, shard, lt })
            : await chain.lookupBlock({ workchain, shard, utime: unixtime! });
      return formatBlockIdExt(id);
    }),

    getShards: shards,
    shards,

    getBlockHeader: operation<'getBlockHeader'>(deps, async ({ query }) => {
      const id = await resolveBlock(chain, query);
      const h = await chain.getBlockHeader(id);
      return {
        '@type': 'blocks.header',
        id: formatBlockIdExt(h.id),
        global_id: h.globalId,
        version: h.version,
        flags: h.flags,
        after_merge: h.afterMerge,
        after_split: h.afterSplit,
        before_split: h.beforeSplit,
        want_merge: h.wantMerge,
        want_split: h.wantSplit,
        validator_list_hash_short: h.validatorListHashShort,
        catchain_seqno: h.catchainSeqno,
        min_ref_mc_seqno: h.minRefMcSeqno,
        is_key_block: h.isKeyBlock,
        prev_key_block_seqno: h.prevKeyBlockSeqno,
        start_lt: h.startLt.toString(),
        end_lt: h.endLt.toString(),
        gen_utime: h.genUtime,
        vert_seqno: h.vertSeqno,
        prev_blocks: h.prevBlocks.map(formatBlockIdExt),
      };
    }),

    getOutMsgQueueSize: operation<'getOutMsgQueueSize'>(deps, async () => {
      const sizes = await chain.getOutMsgQueueSizes();
      return {
        '@type': 'blocks.outMsgQueueSizes',
        shards: sizes.shards.map((s) => ({ '@type': 'blocks.outMsgQueueSize', id: formatBlockIdExt(s.id), size: s.size })),
        ext_msg_queue_size_limit: sizes.extMsgQueueSizeLimit,
      };
    }),
  };
}
