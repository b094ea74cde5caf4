/**
 * GET and POST /api/v3/decode over real HTTP against the composed service, on both networks, with response
 * validation on (an off-spec 200 turns into a 500, so each 200 is also a contract check). Bodies are real mainnet
 * message bodies from the shared action fixtures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beginCell } from '@ton/core';
import { describe, expect, it, vi } from 'vitest';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';
import { fixturePath } from '@tongate/testdata';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const FIXTURES = fixturePath('actions');

/** The first body with this opcode in a fixture file. */
function fixtureBody(file: string, opcode: number): string {
  const fixture = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as {
    transactions: { messages: { opcode: number | null; body: string | null }[] }[];
  };
  for (const tx of fixture.transactions)
    for (const m of tx.messages) if (m.opcode !== null && m.opcode >>> 0 === opcode && m.body) return m.body;
  throw new Error(`no body with opcode ${opcode.toString(16)} in ${file}`);
}

const jettonTransfer = fixtureBody('coffee--coffee-create-pool-creator-only-create.json', 0x0f8a7ea5);
const nftTransfer = fixtureBody('nft--getgems-purchase.json', 0x5fcc3d14);
const comment = beginCell().storeUint(0, 32).storeStringTail('Hello, Bob!').endCell().toBoc().toString('base64');

const gateway = useKeyedGateway({ devnetBlockIntervalMs: 0 });

describe.each(['mainnet', 'testnet'] as const)('API v3 /decode on %s', (network) => {
  const requests = v3Requests(gateway, network);
  const get = (query: string) => requests.get('decode', query);
  const post = (body: unknown) => requests.post('decode', body);

  it('GET: opcodes in every notation, repeated or comma-joined; bodies in base64, url-safe base64 and hex', async () => {
    const q = new URLSearchParams();
    q.append('opcodes', '0x0f8a7ea5');
    q.append('opcodes', '5fcc3d14,0,-1,305419896');
    q.append('bodies', jettonTransfer);
    q.append('bodies', Buffer.from(nftTransfer, 'base64').toString('base64url'));
    q.append('bodies', Buffer.from(comment, 'base64').toString('hex'));
    const r = await get(q.toString());
    expect(r.status).toBe(200);
    // -1 is 0xffffffff (bounce); 305419896 is 0x12345678, which no scheme has.
    expect(r.body.opcodes).toEqual(['jetton_transfer', 'nft_transfer', 'text_comment', 'bounce', 'unknown']);
    expect(r.body.bodies).toHaveLength(3);
    expect(r.body.bodies[0]).toMatchObject({
      '@type': 'jetton_transfer',
      type: 'jetton_transfer',
      query_id: '0',
      amount: '10000',
      forward_ton_amount: '100000000',
    });
    expect(r.body.bodies[0].destination).toMatch(/^0:[0-9A-F]{64}$/);
    expect(r.body.bodies[1]).toMatchObject({ '@type': 'nft_transfer', forward_amount: '30000000', custom_payload: null });
    expect(r.body.bodies[2]).toEqual({ '@type': 'text_comment', type: 'text_comment', comment: 'Hello, Bob!' });
  });

  it('POST: the same decoding from a JSON body; a body no scheme fits gets an error entry, the rest is answered', async () => {
    const unknown = beginCell().storeUint(0x12345678, 32).endCell().toBoc().toString('base64');
    const r = await post({ opcodes: ['0x7362d09c'], bodies: [comment, unknown, jettonTransfer] });
    expect(r.status).toBe(200);
    expect(r.body.opcodes).toEqual(['jetton_notify']);
    expect(r.body.bodies[0].comment).toBe('Hello, Bob!');
    expect(r.body.bodies[1]).toEqual({ error: 'unknown opcode 0x12345678' });
    expect(r.body.bodies[2]['@type']).toBe('jetton_transfer');
    const onlyOpcodes = await post({ opcodes: ['1'] });
    expect(onlyOpcodes.status).toBe(200);
    expect(onlyOpcodes.body).toEqual({ opcodes: ['evaa_supply_master,pyth_update_guardian_set,w4_deploy_install_plugin'], bodies: [] });
  });

  it('bad input: 422 naming the parameter and item', async () => {
    const none = await get('');
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ error: 'opcodes or bodies is required' });
    expect((await post({})).body).toEqual({ error: 'opcodes or bodies is required' });

    const badOpcode = await get('opcodes=0x0f8a7ea5&opcodes=0x1ffffffff');
    expect(badOpcode.status).toBe(422);
    expect(badOpcode.body.error).toMatch(/^invalid opcodes\[1\]: '0x1ffffffff' is not a 32-bit opcode/);
    expect((await post({ opcodes: ['jetton'] })).body.error).toMatch(/^invalid opcodes\[0\]/);

    const notBase64 = await post({ bodies: [comment, 'not base64!'] });
    expect(notBase64.status).toBe(422);
    expect(notBase64.body.error).toMatch(/^bodies\[1\]: not valid base64/);
    const notBoc = await post({ bodies: [Buffer.from('hello world').toString('base64')] });
    expect(notBoc.status).toBe(422);
    expect(notBoc.body.error).toMatch(/^invalid bodies\[0\]: not a bag of cells/);

    const mistyped = await post({ opcodes: 'x' });
    expect(mistyped.status).toBe(422);
    expect(mistyped.body.error).toMatch(/opcodes/);
    const unknownParam = await get(`bodies=${encodeURIComponent(comment)}&op=1`);
    expect(unknownParam.status).toBe(422);
    expect(unknownParam.body.error).toBe('unknown query parameter: op');
  });

  it('bounds: at most 1000 items of each kind, 64 KiB per body', async () => {
    const many = await post({ opcodes: Array.from({ length: 1001 }, () => '0') });
    expect(many.status).toBe(422);
    expect(many.body.error).toBe('invalid opcodes: at most 1000 items, got 1001');
    // Counted before any item is read, so short items make the point within a URL's length.
    const manyBodies = await get(`bodies=${Array.from({ length: 1001 }, () => 'AA').join(',')}`);
    expect(manyBodies.status).toBe(422);
    expect(manyBodies.body.error).toBe('invalid bodies: at most 1000 items, got 1001');
    const thousand = await post({
      opcodes: Array.from({ length: 1000 }, (_, i) => String(i)),
      bodies: Array.from({ length: 1000 }, () => jettonTransfer),
    });
    expect(thousand.status).toBe(200);
    expect(thousand.body.bodies).toHaveLength(1000);

    // A long text comment spread over snake cells: a legal body, but over the per-body limit.
    const huge = beginCell().storeUint(0, 32).storeStringTail('z'.repeat(70_000)).endCell().toBoc().toString('base64');
    const tooBig = await post({ bodies: [huge] });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error).toMatch(/^invalid bodies\[0\]: larger than 65536 bytes/);
  });
});
