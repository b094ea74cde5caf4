import { Address, Cell, loadTransaction } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { seededDevnet } from './devnet-fixture.js';
import { call, callError } from './harness.js';

const { ops, devnet, seed } = await seededDevnet();
afterAll(() => devnet.close());
const faucet = devnet.faucet.address;
const alice = seed.wallets[0]!.address;

/** A basechain shard block with at least two transactions. */
async function busyShardBlock() {
  const { result: info } = await call(ops, 'getMasterchainInfo');
  for (let mc = 2; mc <= info.last.seqno; mc++) {
    const { result } = await call(ops, 'getShards', { seqno: mc });
    for (const id of result.shards) {
      const { result: page } = await call(ops, 'getBlockTransactions', {
        workchain: id.workchain,
        shard: id.shard,
        seqno: id.seqno,
        count: 3,
      });
      if (page.transactions.length >= 2) return id;
    }
  }
  throw new Error('no shard block with two transactions');
}

describe('block transactions', async () => {
  const block = await busyShardBlock();
  const where = { workchain: block.workchain, shard: block.shard, seqno: block.seqno };

  it('getBlockTransactions: shortTxId with wc:hex accounts; exclusive cursor pages through the block', async () => {
    const { result: all } = await call(ops, 'getBlockTransactions', where);
    expect(all['@type']).toBe('blocks.transactions');
    expect(all.req_count).toBe(40);
    expect(all.incomplete).toBe(false);
    const first = all.transactions[0];
    expect(first).toMatchObject({ '@type': 'blocks.shortTxId', mode: 135 });
    expect(first.account).toMatch(/^0:[0-9a-f]{64}$/);

    const { result: page1 } = await call(ops, 'getBlockTransactions', { ...where, count: 1 });
    expect(page1.incomplete).toBe(true);
    expect(page1.transactions).toEqual([first]);
    const cursor = { after_lt: first.lt, after_hash: first.account.split(':')[1] };
    const { result: rest } = await call(ops, 'getBlockTransactions', { ...where, ...cursor, count: 40 });
    expect(rest.transactions).toEqual(all.transactions.slice(1));
    // The cursor's account may also be given as a user-friendly address.
    const friendlyCursor = { after_lt: first.lt, after_hash: Address.parseRaw(first.account).toString() };
    expect((await call(ops, 'getBlockTransactions', { ...where, ...friendlyCursor })).result.transactions).toEqual(rest.transactions);
  });

  it('getBlockTransactions validation: count bounds, cursor halves, hashes', async () => {
    expect(await callError(ops, 'getBlockTransactions', { ...where, after_lt: '1' })).toMatchObject({
      status: 422,
      message: 'after_lt and after_hash should be used together',
    });
    expect(await callError(ops, 'getBlockTransactions', { ...where, count: 0 })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/count must be >= 1/),
    });
    expect(await callError(ops, 'getBlockTransactions', { ...where, root_hash: Buffer.alloc(32).toString('base64') })).toMatchObject({
      status: 404,
    });
  });

  it('getBlockTransactionsExt: whole transactions in the same order', async () => {
    const { result: short } = await call(ops, 'getBlockTransactions', where);
    const { result } = await call(ops, 'getBlockTransactionsExt', where);
    expect(result['@type']).toBe('blocks.transactionsExt');
    expect(result.transactions.map((t: any) => t.transaction_id.hash)).toEqual(short.transactions.map((t: any) => t.hash));
    const tx = result.transactions[0];
    expect(loadTransaction(Cell.fromBase64(tx.data).beginParse()).lt.toString()).toBe(tx.transaction_id.lt);
    expect(tx.account).toBe(short.transactions[0].account);
  });
});

describe('account transactions', () => {
  it('getTransactions: newest first, ext.transaction shapes that TonClient accepts', async () => {
    // The whole history (the seed gives alice more transactions than a default page).
    const { result } = await call(ops, 'getTransactions', { address: alice.toString(), limit: 100 });
    expect(result.length).toBeGreaterThan(2);
    const lts = result.map((t: any) => BigInt(t.transaction_id.lt));
    expect([...lts].sort((a, b) => (a < b ? 1 : -1))).toEqual(lts);
    for (const tx of result) {
      expect(tx['@type']).toBe('ext.transaction');
      expect(tx.account).toBe(`0:${alice.hash.toString('hex').toUpperCase()}`);
      expect(tx.in_msg === null).toBe(false);
      for (const m of [tx.in_msg, ...tx.out_msgs].filter(Boolean)) {
        expect(typeof m.source).toBe('string');
        expect(m.msg_data['@type']).toMatch(/^msg\.data(Raw|Text)$/);
      }
    }
    // The oldest is the faucet's welcome transfer: a text comment.
    const welcome = result[result.length - 1];
    expect(Address.parse(welcome.in_msg.source).equals(faucet)).toBe(true);
    expect(welcome.in_msg.msg_data['@type']).toBe('msg.dataText');
    expect(welcome.in_msg.message).toMatch(/welcome, v4r2/);
  });

  it('getTransactions paging: (lt, hash) inclusive in hex or base64, to_lt exclusive, limit', async () => {
    const { result: all } = await call(ops, 'getTransactions', { address: alice.toRawString(), limit: 100 });
    const second = all[1];
    const hex = Buffer.from(second.transaction_id.hash, 'base64').toString('hex');
    const fromHex = (await call(ops, 'getTransactions', { address: alice.toString(), lt: second.transaction_id.lt, hash: hex, limit: 100 }))
      .result;
    expect(fromHex.map((t: any) => t.transaction_id)).toEqual(all.slice(1).map((t: any) => t.transaction_id));
    const fromB64url = (
      await call(ops, 'getTransactions', {
        address: alice.toString(),
        lt: second.transaction_id.lt,
        hash: Buffer.from(hex, 'hex').toString('base64url'),
        limit: 1,
      })
    ).result;
    expect(fromB64url.map((t: any) => t.transaction_id)).toEqual([second.transaction_id]);
    const upTo = (await call(ops, 'getTransactions', { address: alice.toString(), to_lt: all[2].transaction_id.lt })).result;
    expect(upTo.map((t: any) => t.transaction_id)).toEqual(all.slice(0, 2).map((t: any) => t.transaction_id));
    expect((await call(ops, 'getTransactions', { address: new Address(0, Buffer.alloc(32, 9)).toString() })).result).toEqual([]);
  });

  it('getTransactions validation', async () => {
    expect(await callError(ops, 'getTransactions', { address: alice.toString(), lt: '5' })).toMatchObject({
      status: 422,
      message: 'lt and hash should be used together',
    });
    expect(await callError(ops, 'getTransactions', { address: alice.toString(), limit: 1001 })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/limit must be <= 1000/),
    });
    expect(await callError(ops, 'getTransactions', { address: alice.toString(), lt: '5', hash: 'nothex' })).toMatchObject({
      status: 422,
      message: expect.stringMatching(/hash/),
    });
  });

  it('getTransactionsStd: raw.transactions with previous_transaction_id', async () => {
    const { result: all } = await call(ops, 'getTransactions', { address: alice.toString() });
    const { result } = await call(ops, 'getTransactionsStd', { address: alice.toString(), limit: 1 });
    expect(result['@type']).toBe('raw.transactions');
    expect(result.transactions[0]['@type']).toBe('raw.transaction');
    expect(result.transactions[0].transaction_id).toEqual(all[0].transaction_id);
    expect(result.previous_transaction_id).toEqual(all[1].transaction_id);
  });

  it('tryLocateTx / tryLocateResultTx / tryLocateSourceTx find both ends of a message', async () => {
    const { result: all } = await call(ops, 'getTransactions', { address: alice.toString(), limit: 100 });
    const welcome = all[all.length - 1];
    const query = { source: faucet.toString(), destination: alice.toRawString(), created_lt: welcome.in_msg.created_lt };
    for (const op of ['tryLocateTx', 'tryLocateResultTx']) {
      const { result } = await call(ops, op, query);
      expect(result.transaction_id).toEqual(welcome.transaction_id);
    }
    const { result: source } = await call(ops, 'tryLocateSourceTx', query);
    expect(source.account).toBe(`0:${faucet.hash.toString('hex').toUpperCase()}`);
    expect(source.out_msgs.some((m: any) => m.hash === welcome.in_msg.hash)).toBe(true);
    const missing = { ...query, created_lt: '1' };
    expect(await callError(ops, 'tryLocateTx', missing)).toMatchObject({ status: 404, message: 'transaction was not found' });
    expect(await callError(ops, 'tryLocateSourceTx', missing)).toMatchObject({ status: 404, message: 'transaction was not found' });
  });
});
