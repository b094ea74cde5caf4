/**
 * Decoding real mainnet bodies (the shared action fixtures) and built ones. Every expectation comes from a second
 * source: the body read field by field with @ton/core, the fixture's expected actions (the reference classifier's
 * reading of the same trace), or the values the test itself wrote into the cell.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address, beginCell, Cell, Dictionary, type Slice } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  decodeMessageBody,
  decodeOpcode,
  MAX_VALUES_PER_BODY,
  messageSchemes,
  MessageSchemes,
  parseTlb,
  type DecodedBody,
} from '../src/index.js';
import { bodiesWithOpcode, fixtureMessages, FIXTURES_DIR } from './fixture-bodies.js';

const raw = (a: Address | null) => (a ? a.toRawString().toUpperCase() : null);

function decoded(cell: Cell): DecodedBody {
  const r = decodeMessageBody(cell);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

/** TEP-74/62 `forward_payload:(Either Cell ^Cell)` as the decoder renders it: the payload cell as a base64 BOC. */
function forwardPayload(s: Slice): string {
  const cell = s.loadBit() ? s.loadRef() : beginCell().storeSlice(s).endCell();
  return cell.toBoc({ idx: false, crc32: true }).toString('base64');
}

function expectedActions(file: string): { type: string; values: Record<string, any> }[] {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, file), 'utf8')).expected_actions;
}

describe('message bodies of the TEP-74 jetton standard', () => {
  it('jetton_transfer: every field as @ton/core reads it', () => {
    for (const m of bodiesWithOpcode(0x0f8a7ea5)) {
      const s = m.cell.beginParse();
      s.skip(32);
      expect(decoded(m.cell)).toEqual({
        '@type': 'jetton_transfer',
        type: 'jetton_transfer',
        query_id: s.loadUintBig(64).toString(),
        amount: s.loadCoins().toString(),
        destination: raw(s.loadAddress()),
        response_destination: raw(s.loadMaybeAddress()),
        custom_payload: s.loadMaybeRef()?.toBoc({ idx: false, crc32: true }).toString('base64') ?? null,
        forward_ton_amount: s.loadCoins().toString(),
        forward_payload: forwardPayload(s),
      });
    }
  });

  it('jetton_internal_transfer and jetton_notify', () => {
    for (const m of bodiesWithOpcode(0x178d4519)) {
      const s = m.cell.beginParse();
      s.skip(32);
      const body = decoded(m.cell);
      expect(body['@type']).toBe('jetton_internal_transfer');
      expect(body).toMatchObject({
        query_id: s.loadUintBig(64).toString(),
        amount: s.loadCoins().toString(),
        from: raw(s.loadMaybeAddress()),
        response_address: raw(s.loadMaybeAddress()),
        forward_ton_amount: s.loadCoins().toString(),
      });
    }
    for (const m of bodiesWithOpcode(0x7362d09c)) {
      const s = m.cell.beginParse();
      s.skip(32);
      expect(decoded(m.cell)).toEqual({
        '@type': 'jetton_notify',
        type: 'jetton_notify',
        query_id: s.loadUintBig(64).toString(),
        amount: s.loadCoins().toString(),
        sender: raw(s.loadMaybeAddress()),
        forward_payload: forwardPayload(s),
      });
    }
  });

  it('jetton_burn and excess', () => {
    for (const m of bodiesWithOpcode(0x595f07bc)) {
      const s = m.cell.beginParse();
      s.skip(32);
      expect(decoded(m.cell)).toMatchObject({
        '@type': 'jetton_burn',
        query_id: s.loadUintBig(64).toString(),
        amount: s.loadCoins().toString(),
        response_destination: raw(s.loadMaybeAddress()),
      });
    }
    for (const m of bodiesWithOpcode(0xd53276db)) {
      const s = m.cell.beginParse();
      s.skip(32);
      expect(decoded(m.cell)).toEqual({ '@type': 'excess', type: 'excess', query_id: s.loadUintBig(64).toString() });
    }
  });
});

describe('message bodies of the TEP-62 NFT standard', () => {
  it('nft_transfer, matching what the reference classifier read from the same purchase', () => {
    const [m] = bodiesWithOpcode(0x5fcc3d14).filter((x) => x.file === 'nft--getgems-purchase.json');
    const body = decoded(m!.cell);
    const action = expectedActions('nft--getgems-purchase.json').find((a) => a.type === 'nft_transfer')!.values;
    expect(body).toMatchObject({
      '@type': 'nft_transfer',
      query_id: String(action.nft_transfer_data.query_id),
      new_owner: action.destination,
      response_destination: action.nft_transfer_data.response_destination,
      custom_payload: null,
      forward_amount: String(action.nft_transfer_data.forward_amount),
      forward_payload: action.nft_transfer_data.forward_payload,
    });
  });

  it('nft_ownership_assigned', () => {
    for (const m of bodiesWithOpcode(0x05138d91)) {
      const s = m.cell.beginParse();
      s.skip(32);
      expect(decoded(m.cell)).toMatchObject({
        '@type': 'nft_ownership_assigned',
        query_id: s.loadUintBig(64).toString(),
        prev_owner: raw(s.loadMaybeAddress()),
      });
    }
  });
});

describe('DEX swap bodies, against the swaps the reference classifier found in the same traces', () => {
  it('STON.fi v1 swap', () => {
    const file = 'stonfi-swaps--stonfi-jetton-to-ton-receiver-ne-sender.json';
    const swap = expectedActions(file).find((a) => a.type === 'jetton_swap')!.values;
    const [m] = bodiesWithOpcode(0x25938561).filter((x) => x.file === file);
    expect(decoded(m!.cell)).toMatchObject({
      '@type': 'stonfi_swap',
      jetton_amount: String(swap.jetton_swap_data.dex_incoming_transfer.amount),
      to_address: swap.destination,
      addrs: { from_user: swap.source },
    });
  });

  it('STON.fi v2 swap', () => {
    const [m] = bodiesWithOpcode(0x6664de2a);
    const s = m!.cell.beginParse();
    s.skip(32);
    expect(decoded(m!.cell)).toMatchObject({
      '@type': 'stonfi_swap_v2',
      query_id: s.loadUintBig(64).toString(),
      from_user: raw(s.loadAddress()),
      left_amount: s.loadCoins().toString(),
      right_amount: s.loadCoins().toString(),
    });
  });

  it('DeDust swap event and TONCO pool swap', () => {
    const dedustFile = 'coffee--less-complicated-swap-dedust-coffee.json';
    const dedust = expectedActions(dedustFile).find((a) => a.values.jetton_swap_data?.dex === 'dedust')!.values.jetton_swap_data;
    const [event] = bodiesWithOpcode(0x9c610de3).filter((x) => x.file === dedustFile);
    const body = decoded(event!.cell);
    expect(body).toMatchObject({
      '@type': 'dedust_swap',
      amount_in: String(dedust.dex_incoming_transfer.amount),
      sender_addr: dedust.sender,
    });
    expect(`0:${(body.asset_in as { address: string }).address}`).toBe(dedust.dex_incoming_transfer.asset);

    const toncoFile = 'tonco--tonco-swap-ton-to-kuku.json';
    const tonco = expectedActions(toncoFile).find((a) => a.type === 'jetton_swap')!.values;
    const [swap] = bodiesWithOpcode(0xa7fb58f8).filter((x) => x.file === toncoFile);
    expect(decoded(swap!.cell)).toMatchObject({
      '@type': 'tonco_pool_swap',
      owner_address: tonco.source,
      swap_params: { amount: String(tonco.jetton_swap_data.dex_incoming_transfer.amount) },
    });
  });
});

describe('comments, built bodies and the opcode table', () => {
  it('text comments, in the cell and across snake references, under the API name `comment`', () => {
    const [real] = bodiesWithOpcode(0).filter((m) => m.cell.refs.length === 0);
    expect(decoded(real!.cell)).toEqual({
      '@type': 'text_comment',
      type: 'text_comment',
      comment: real!.cell.beginParse().skip(32).loadStringTail(),
    });
    const long = 'x'.repeat(200) + ' — ünïcode';
    const body = beginCell().storeUint(0, 32).storeStringTail(long).endCell();
    expect(body.refs).toHaveLength(1);
    expect(decoded(body)).toEqual({ '@type': 'text_comment', type: 'text_comment', comment: long });
  });

  it('a built jetton transfer: payload in a reference, custom payload present, 64-bit query id as a string', () => {
    const to = new Address(0, Buffer.alloc(32, 0xab));
    const payload = beginCell().storeUint(0, 32).storeStringTail('hi').endCell();
    const custom = beginCell().storeUint(7, 8).endCell();
    const body = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(2n ** 64n - 1n, 64)
      .storeCoins(123456789n)
      .storeAddress(to)
      .storeAddress(null)
      .storeMaybeRef(custom)
      .storeCoins(1n)
      .storeBit(1)
      .storeRef(payload)
      .endCell();
    expect(decoded(body)).toEqual({
      '@type': 'jetton_transfer',
      type: 'jetton_transfer',
      query_id: '18446744073709551615',
      amount: '123456789',
      destination: raw(to),
      response_destination: null,
      custom_payload: custom.toBoc({ idx: false, crc32: true }).toString('base64'),
      forward_ton_amount: '1',
      forward_payload: payload.toBoc({ idx: false, crc32: true }).toString('base64'),
    });
  });

  it('picks between schemes of one opcode by what the body holds (change vs delete DNS record)', () => {
    const key = Buffer.alloc(32, 0x11);
    const record = beginCell()
      .storeUint(0x9fd3, 16)
      .storeAddress(new Address(0, Buffer.alloc(32, 1)))
      .storeUint(0, 8)
      .endCell();
    const change = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(5, 64).storeBuffer(key).storeRef(record).endCell();
    expect(decoded(change)).toEqual({
      '@type': 'change_dns_record',
      type: 'change_dns_record',
      query_id: '5',
      key: key.toString('hex').toUpperCase(),
      value: { '@type': 'dns_smc_address', smc_addr: raw(new Address(0, Buffer.alloc(32, 1))), flags: 0, cap_list: null },
    });
    const del = beginCell().storeUint(0x4eb1f0f9, 32).storeUint(5, 64).storeBuffer(key).endCell();
    expect(decoded(del)).toMatchObject({ '@type': 'delete_dns_record', query_id: '5' });
  });

  it('reads dictionaries (HashmapE) into objects keyed by the key', () => {
    const schemes = new MessageSchemes(parseTlb('t#00000042 d:(HashmapE 32 int32) = InternalMsgBody0;'));
    const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Int(32));
    dict.set(1, -5).set(7, 100).set(4000000000, 3);
    const body = beginCell().storeUint(0x42, 32).storeDict(dict).endCell();
    expect(schemes.decodeBody(body)).toEqual({ ok: true, value: { '@type': 't', type: 't', d: { '1': -5, '7': 100, '4000000000': 3 } } });
  });

  it('answers an error, not an exception, for bodies that fit no scheme', () => {
    expect(decodeMessageBody(beginCell().endCell())).toEqual({ ok: false, error: 'body has no 32-bit opcode' });
    expect(decodeMessageBody(beginCell().storeUint(0x12345678, 32).endCell())).toEqual({ ok: false, error: 'unknown opcode 0x12345678' });
    const truncated = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).endCell();
    expect(decodeMessageBody(truncated)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^body does not match the schemes of opcode 0x0f8a7ea5/),
    });
  });

  it('bounds the work a body can cost: values per body, and a budget shared by the bodies of a request', () => {
    // `n * Unit` reads n values from no bits at all: the kind of body that would cost far more than its size.
    const schemes = new MessageSchemes(parseTlb('unit$_ = Unit; t#00000042 n:(## 16) xs:(n * Unit) = InternalMsgBody0;'));
    const body = (n: number) => beginCell().storeUint(0x42, 32).storeUint(n, 16).endCell();
    expect(schemes.decodeBody(body(3))).toEqual({
      ok: true,
      value: { '@type': 't', type: 't', n: 3, xs: [{ '@type': 'unit' }, { '@type': 'unit' }, { '@type': 'unit' }] },
    });
    expect(schemes.decodeBody(body(60_000))).toEqual({ ok: false, error: `more than ${MAX_VALUES_PER_BODY} values in one body` });
    const budget = { values: 5_000 };
    expect(schemes.decodeBody(body(3_000), budget).ok).toBe(true);
    expect(schemes.decodeBody(body(3_000), budget)).toEqual({ ok: false, error: 'decoding budget of this request exhausted' });
  });

  it('names opcodes, preferring the lower-numbered body type when several share one', () => {
    expect(decodeOpcode(0x0f8a7ea5)).toBe('jetton_transfer');
    expect(decodeOpcode(0)).toBe('text_comment');
    expect(decodeOpcode(0x7362d09c)).toBe('jetton_notify'); // also megaton_swap, an ExternalMsgBody
    expect(decodeOpcode(0x4eb1f0f9)).toBe('change_dns_record');
    expect(decodeOpcode(0x5fcc3d14)).toBe('nft_transfer');
    expect(decodeOpcode(0x12345678)).toBeNull();
  });
});

describe('every fixture body', () => {
  // Bodies that do not follow their opcode's scheme: EVAA withdraw_master with a shorter layout, and tgBTC burn
  // notifications without a response address (the fixtures' names say as much: "strange burn notification").
  const NONSTANDARD = new Set([
    'evaa--jetton-withdrawal-withdraw-not-collateralized-excess.json',
    'tgbtc--tgbtc-burn-with-strange-burn-notification.json',
    'tgbtc--tgbtc-burn.json',
  ]);

  it('decodes when its opcode has a scheme, except the known non-standard ones', () => {
    const schemes = messageSchemes();
    const failed = new Set<string>();
    let decodedCount = 0;
    for (const m of fixtureMessages()) {
      if (m.opcode === null || schemes.opcodeName(m.opcode) === null) continue;
      const r = schemes.decodeBody(m.cell);
      if (r.ok) decodedCount++;
      else failed.add(m.file);
    }
    expect(failed).toEqual(NONSTANDARD);
    expect(decodedCount).toBeGreaterThan(800);
  });
});
