import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MESSAGE_SCHEMES, parseTlb, TlbSyntaxError } from '../src/index.js';

const hexBits = (hex: string) =>
  BigInt('0x' + hex)
    .toString(2)
    .padStart(hex.length * 4, '0');

describe('TL-B parser', () => {
  const constructors = parseTlb(readFileSync(DEFAULT_MESSAGE_SCHEMES, 'utf8'));
  const named = (name: string) => constructors.filter((c) => c.name === name);

  it('reads the whole scheme file: every declaration, with its tag, fields and result type', () => {
    const declarations = readFileSync(DEFAULT_MESSAGE_SCHEMES, 'utf8')
      .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
      .split(';')
      .filter((d) => d.trim() !== '');
    expect(constructors).toHaveLength(declarations.length);
    const [transfer] = named('jetton_transfer');
    expect(transfer).toMatchObject({ tag: hexBits('0f8a7ea5'), result: { name: 'InternalMsgBody0', args: [] } });
    expect(transfer!.fields.map((f) => f.name)).toEqual([
      'query_id',
      'amount',
      'destination',
      'response_destination',
      'custom_payload',
      'forward_ton_amount',
      'forward_payload',
    ]);
    expect(transfer!.fields[1]!.type).toEqual({ kind: 'apply', name: 'VarUInteger', args: [{ kind: 'number', value: 16 }] });
    expect(transfer!.fields[6]!.type).toEqual({
      kind: 'apply',
      name: 'Either',
      args: [
        { kind: 'apply', name: 'Cell', args: [] },
        { kind: 'ref', inner: { kind: 'apply', name: 'Cell', args: [] } },
      ],
    });
  });

  it('reads binary tags, implicit parameters, output parameters and arithmetic', () => {
    const [std] = constructors.filter((c) => c.name === 'addr_std' && c.result.name === 'MsgAddressInt');
    expect(std!.tag).toBe('10');
    const [edge] = named('hashmap_edge');
    expect(edge!.tag).toBe('');
    expect(edge!.params).toEqual([
      { name: 'n', kind: '#' },
      { name: 'X', kind: 'Type' },
      { name: 'l', kind: '#' },
      { name: 'm', kind: '#' },
    ]);
    expect(edge!.fields[0]!.type).toEqual({
      kind: 'apply',
      name: 'HmLabel',
      args: [
        { kind: 'output', inner: { kind: 'apply', name: 'l', args: [] } },
        { kind: 'apply', name: 'n', args: [] },
      ],
    });
    const [chunk] = named('text_chunk');
    expect(chunk!.result.args[0]).toEqual({
      kind: 'binary',
      op: '+',
      left: { kind: 'apply', name: 'n', args: [] },
      right: { kind: 'number', value: 1 },
    });
    expect(chunk!.fields[1]!.type).toEqual({
      kind: 'apply',
      name: 'bits',
      args: [{ kind: 'binary', op: '*', left: { kind: 'apply', name: 'len', args: [] }, right: { kind: 'number', value: 8 } }],
    });
  });

  it('reads the constructs the npm parser rejects: comma-joined names, anonymous cells, exotic constructors', () => {
    const shared = constructors.find((c) => c.name.includes(','));
    expect(shared).toMatchObject({
      name: 'evaa_supply_master,pyth_update_guardian_set,w4_deploy_install_plugin',
      tag: hexBits('00000001'),
    });
    const [takeState] = named('dedust_take_pool_state');
    const assets = takeState!.fields.find((f) => f.name === 'assets')!;
    expect(assets.type).toMatchObject({ kind: 'apply', name: 'Maybe', args: [{ kind: 'ref', inner: { kind: 'record' } }] });
    const [proof] = named('merkle_proof');
    expect(proof).toMatchObject({ tag: hexBits('03'), result: { name: 'MERKLE_PROOF' } });
  });

  it('reads conditional fields and skips constraints', () => {
    const [adnl] = named('dns_adnl_address');
    expect(adnl!.fields.map((f) => f.name)).toEqual(['adnl_addr', 'flags', 'proto_list']);
    expect(adnl!.fields[2]!.type).toEqual({
      kind: 'conditional',
      condition: 'flags',
      bit: 0,
      then: { kind: 'apply', name: 'ProtoList', args: [] },
    });
  });

  it('reads a completion tag and rejects malformed declarations with the line number', () => {
    expect(parseTlb('a#8_ x:uint8 = A;')[0]!.tag).toBe('');
    expect(parseTlb('a#c_ x:uint8 = A;')[0]!.tag).toBe('1');
    expect(parseTlb('a$101 = A;')[0]!.tag).toBe('101');
    expect(() => parseTlb('ok$0 = A;\n\nbroken#01 x:uint8 A;')).toThrow(/line 3: no '='/);
    expect(() => parseTlb('bad#01 x:(uint8 = A;')).toThrow(TlbSyntaxError);
    expect(() => parseTlb('bad#01 x:@ = A;')).toThrow(/line 1: unexpected/);
  });
});
