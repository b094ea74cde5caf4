import { afterAll, describe, expect, it } from 'vitest';
import { seededDevnet } from './devnet-fixture.js';
import { createV2Handlers } from '../src/index.js';
import { call, callError, requestOperations } from './harness.js';

const { ops, devnet } = await seededDevnet();
afterAll(() => devnet.close());
const WHOLE = '-9223372036854775808';

describe('masterchain and blocks', () => {
  it('getMasterchainInfo: last, init and state_root_hash', async () => {
    const { result } = await call(ops, 'getMasterchainInfo');
    expect(result['@type']).toBe('blocks.masterchainInfo');
    expect(result.last).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, shard: WHOLE });
    expect(result.last.seqno).toBeGreaterThan(1);
    expect(result.state_root_hash).toHaveLength(44);
  });

  it('getConsensusBlock: last masterchain seqno and the current time', async () => {
    const { result: info } = await call(ops, 'getMasterchainInfo');
    const { result } = await call(ops, 'getConsensusBlock');
    expect(result).toMatchObject({ '@type': 'ext.blocks.consensusBlock', consensus_block: info.last.seqno });
    expect(Math.abs(result.timestamp - Date.now() / 1000)).toBeLessThan(5);
  });

  it('lookupBlock by seqno, lt and unixtime agree; exactly one selector is required', async () => {
    const { result: bySeqno } = await call(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, seqno: 2 });
    expect(bySeqno).toMatchObject({ '@type': 'ton.blockIdExt', seqno: 2 });
    const { result: header } = await call(ops, 'getBlockHeader', { workchain: -1, shard: WHOLE, seqno: 2 });
    // As the node's lt index answers: the first block whose end_lt is at or past lt. start_lt equals the previous
    // block's end_lt, so an lt inside block 2 is start_lt + 1.
    const { result: byLt } = await call(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, lt: (BigInt(header.start_lt) + 1n).toString() });
    expect(byLt.seqno).toBe(2);
    const { result: byTime } = await call(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, unixtime: header.gen_utime });
    // Several devnet blocks can share one second: any block of that second is a correct answer.
    const found = await devnet.getBlockHeader({ workchain: -1, shard: -(2n ** 63n), seqno: byTime.seqno });
    expect(found.genUtime).toBe(header.gen_utime);
    expect(await callError(ops, 'lookupBlock', { workchain: -1, shard: WHOLE })).toMatchObject({
      status: 422,
      message: 'exactly one of seqno, lt, unixtime should be specified',
    });
    expect(await callError(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, seqno: 2, lt: '5' })).toMatchObject({ status: 422 });
    expect(await callError(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, seqno: 99_999_999 })).toMatchObject({ status: 404 });
  });

  it('getShards and its alias shards list the basechain shard blocks', async () => {
    const { result: info } = await call(ops, 'getMasterchainInfo');
    const { result } = await call(ops, 'getShards', { seqno: info.last.seqno });
    expect(result['@type']).toBe('blocks.shards');
    // The devnet basechain's two halves, 0x4000000000000000 and 0xc000000000000000, as signed 64-bit strings.
    expect(result.shards.map((s: { workchain: number; shard: string }) => [s.workchain, s.shard])).toEqual([
      [0, '4611686018427387904'],
      [0, '-4611686018427387904'],
    ]);
    expect(result.shards[0]).toMatchObject({ '@type': 'ton.blockIdExt' });
    expect((await call(ops, 'shards', { seqno: info.last.seqno })).result).toEqual(result);
    expect(await callError(ops, 'shards', {})).toMatchObject({ status: 422, message: expect.stringMatching(/required property 'seqno'/) });
  });

  it('getBlockHeader: int64 strings, prev_blocks; hashes must match when given', async () => {
    const { result: id } = await call(ops, 'lookupBlock', { workchain: -1, shard: WHOLE, seqno: 3 });
    const { result } = await call(ops, 'getBlockHeader', {
      workchain: -1,
      shard: WHOLE,
      seqno: 3,
      root_hash: id.root_hash,
      file_hash: id.file_hash,
    });
    expect(result['@type']).toBe('blocks.header');
    expect(result.id).toEqual(id);
    expect(typeof result.end_lt).toBe('string');
    expect(BigInt(result.end_lt)).toBeGreaterThanOrEqual(BigInt(result.start_lt));
    expect(result.prev_blocks[0].seqno).toBe(2);
    const wrong = Buffer.alloc(32, 7).toString('hex');
    expect(await callError(ops, 'getBlockHeader', { workchain: -1, shard: WHOLE, seqno: 3, root_hash: wrong })).toMatchObject({
      status: 404,
    });
    expect(await callError(ops, 'getBlockHeader', { workchain: -1, shard: WHOLE, seqno: 3, root_hash: 'xyz' })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/root_hash/),
    });
  });

  it('getMasterchainBlockSignatures and getShardBlockProof', async () => {
    const { result: sigs } = await call(ops, 'getMasterchainBlockSignatures', { seqno: 2 });
    // The devnet signs as mainnet does today, with simplex sets (the hosted 2.1 API's blockSignatures.simplex).
    expect(sigs['@type']).toBe('blocks.blockSignatures.simplex');
    expect(sigs.id.seqno).toBe(2);
    expect(sigs.slot).toBe(2);
    expect(sigs.signatures.length).toBeGreaterThan(0);
    expect(sigs.signatures[0]['@type']).toBe('blocks.signature');
    expect(await callError(ops, 'getMasterchainBlockSignatures', { seqno: 99_999_999 })).toMatchObject({ status: 404 });

    const { result: info } = await call(ops, 'getMasterchainInfo');
    const { result: shards } = await call(ops, 'getShards', { seqno: info.last.seqno });
    const shard = shards.shards[0];
    const { result: proof } = await call(ops, 'getShardBlockProof', { workchain: shard.workchain, shard: shard.shard, seqno: shard.seqno });
    expect(proof['@type']).toBe('blocks.shardBlockProof');
    // `from` is the trusted masterchain block the proof starts at; `mc_id` the one that commits the shard block.
    expect(proof.from.workchain).toBe(-1);
    expect(proof.mc_id.workchain).toBe(-1);
    expect(proof.from.seqno).toBeGreaterThanOrEqual(proof.mc_id.seqno);
  });

  it('getMasterchainBlockSignatures of a block finalized by the simplex consensus: its session, slot and candidate too', async () => {
    const simplex = { sessionId: Buffer.alloc(32, 0x51), slot: 77, candidate: Buffer.alloc(120, 0x77) };
    const chain = new Proxy(devnet, {
      get(target, prop) {
        if (prop === 'getMasterchainBlockSignatures')
          return async (seqno: number) => ({ ...(await target.getMasterchainBlockSignatures(seqno)), simplex });
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { result } = await call(requestOperations(createV2Handlers({ chain })), 'getMasterchainBlockSignatures', { seqno: 2 });
    expect(result).toMatchObject({
      '@type': 'blocks.blockSignatures.simplex',
      id: { '@type': 'ton.blockIdExt', seqno: 2 },
      session_id: Buffer.alloc(32, 0x51).toString('base64'),
      slot: 77,
      candidate: Buffer.alloc(120, 0x77).toString('base64'),
    });
    expect(result.signatures[0]['@type']).toBe('blocks.signature');
  });

  it('getOutMsgQueueSize', async () => {
    const { result } = await call(ops, 'getOutMsgQueueSize');
    expect(result['@type']).toBe('blocks.outMsgQueueSizes');
    expect(result.ext_msg_queue_size_limit).toBeGreaterThan(0);
    for (const s of result.shards) expect(s['@type']).toBe('blocks.outMsgQueueSize');
  });
});
