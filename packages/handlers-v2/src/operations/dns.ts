import type { ChainSource } from '@tongate/chain';
import { rootResolverFromConfig4 } from '@tongate/contracts';
import { type Address, beginCell, type Cell, Dictionary, type DictionaryValue, type Slice, type TupleItem } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { ApiError } from '../api-error.js';
import { b64, friendly } from '../format.js';
import type { ResultOf } from './common.js';

/**
 * dnsResolve: TEP-81 resolution the way tonlib's `dns.resolve` does it, so that answers match the hosted API's:
 * names are encoded label by label from the right, each label ended by a zero byte; a resolver that consumes
 * only part of the name answers with its next resolver, which is asked for the rest while `ttl` allows.
 */

type Resolved = ResultOf<'dnsResolve'>;
type Entry = Resolved['entries'][number];
type EntryData = Entry['entry'];

/** Most resolvers one request follows: each is a get-method run, and real names need three or four. */
export const MAX_RESOLVER_HOPS = 16;
/** A cell holds 1023 bits: the encoded name (with its zero bytes) must fit 127 bytes. */
const MAX_ENCODED_NAME = 127;

export interface DnsQuery {
  address?: Address;
  name: string;
  category?: string;
  ttl: number;
  seqno?: number;
}

/** `example.ton` -> `ton\0example\0`; the empty name (or `.`) -> `\0`, a resolver's own records. */
export function encodeDnsName(name: string): Buffer {
  if (name === '' || name === '.') return Buffer.from([0]);
  const parts: Buffer[] = [];
  let rest = name;
  while (rest !== '') {
    const dot = rest.lastIndexOf('.');
    parts.push(Buffer.from(dot < 0 ? rest : rest.slice(dot + 1), 'utf8'), Buffer.from([0]));
    rest = dot < 0 ? '' : rest.slice(0, dot);
  }
  return Buffer.concat(parts);
}

/** The inverse of encodeDnsName for a consumed prefix, as tonlib writes it (`ton` -> `ton`, `\0foo` -> `foo.`). */
export function decodeDnsName(encoded: Buffer): string {
  let out = '';
  let rest = encoded;
  while (rest.length > 0) {
    const zero = rest.lastIndexOf(0);
    if (zero < 0) {
      out += rest.toString('utf8');
      break;
    }
    out += rest.subarray(zero + 1).toString('utf8') + '.';
    rest = rest.subarray(0, zero);
  }
  return out;
}

/** A category parameter as the 256-bit key: 64 hex digits as they are, any other text hashed (TEP-81 names). */
export function dnsCategory(text: string | undefined): bigint {
  if (text === undefined || text === '') return 0n;
  if (/^(0[xX])?[0-9a-fA-F]{64}$/.test(text)) return BigInt('0x' + text.replace(/^0[xX]/, ''));
  return BigInt('0x' + Buffer.from(sha256_sync(text)).toString('hex'));
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** tonlib's text form of an ADNL address: base32 of 0x2d, the 32 bytes and their CRC16, without the first letter. */
export function adnlText(id: Buffer): string {
  const buf = Buffer.alloc(35);
  buf[0] = 0x2d;
  id.copy(buf, 1);
  buf.writeUInt16BE(crc16(buf.subarray(0, 33)), 33);
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of buf) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(acc << (5 - bits)) & 31];
  return out.slice(1);
}

// tonlib writes record addresses in their default friendly form: bounceable, url-safe, without the testnet flag.
function accountAddress(a: Address) {
  return { '@type': 'accountAddress' as const, account_address: friendly(a, false) };
}

function stdAddress(s: Slice): Address {
  if (s.remainingBits < 3 || s.preloadUint(3) !== 0b100) throw new Error('not an addr_std');
  return s.loadAddress();
}

/** `text$_ chunks:(## 8) rest:(TextChunks chunks)`: chunks of `len:(## 8) data:(bits len*8)`, each next in a ref. */
function loadText(s: Slice): string {
  const chunks = s.loadUint(8);
  const parts: Buffer[] = [];
  let cur = s;
  for (let i = 0; i < chunks; i++) {
    parts.push(cur.loadBuffer(cur.loadUint(8)));
    if (i + 1 < chunks) cur = cur.loadRef().beginParse();
  }
  return Buffer.concat(parts).toString('utf8');
}

/** One DNSRecord as tonlib shows it; null for what tonlib cannot parse (it leaves such records out). */
export function dnsEntryData(record: Cell): EntryData | null {
  try {
    const s = record.beginParse();
    switch (s.loadUint(16)) {
      case 0x1eda:
        return { '@type': 'dns.entryDataText', text: loadText(s) };
      case 0xba93:
        return { '@type': 'dns.entryDataNextResolver', resolver: accountAddress(stdAddress(s)) };
      case 0x9fd3:
        return { '@type': 'dns.entryDataSmcAddress', smc_address: accountAddress(stdAddress(s)) };
      case 0xad01:
        return { '@type': 'dns.entryDataAdnlAddress', adnl_address: { '@type': 'adnlAddress', adnl_address: adnlText(s.loadBuffer(32)) } };
      case 0x7473:
        return { '@type': 'dns.entryDataStorageAddress', bag_id: s.loadBuffer(32).toString('hex').toUpperCase() };
      default:
        return null;
    }
  } catch {
    return null;
  }
}

const categoryB64 = (category: bigint) => b64(Buffer.from(category.toString(16).padStart(64, '0'), 'hex'));
const NEXT_RESOLVER = dnsCategory('dns_next_resolver');

/** What a resolver's `dnsresolve` answered: the bytes it consumed and the record (or dictionary), or nothing. */
interface Answer {
  consumed: number;
  value: Cell | null;
}

async function askResolver(chain: ChainSource, resolver: Address, encoded: Buffer, category: bigint, seqno?: number): Promise<Answer> {
  const args: TupleItem[] = [
    { type: 'slice', cell: beginCell().storeBuffer(encoded).endCell() },
    { type: 'int', value: category },
  ];
  const result = await chain.runGetMethod(resolver, 'dnsresolve', args, seqno);
  const where = friendly(resolver, false);
  if (result.exitCode !== 0 && result.exitCode !== 1)
    throw new ApiError(409, `dnsresolve failed on ${where}: exit code ${result.exitCode}`);
  const [bits, value] = result.stack;
  const valueCell = value?.type === 'cell' ? value.cell : value?.type === 'null' ? null : undefined;
  if (result.stack.length !== 2 || bits?.type !== 'int' || valueCell === undefined) {
    throw new ApiError(409, `dnsresolve of ${where} did not answer (int, cell)`);
  }
  if (valueCell === null) return { consumed: 0, value: null };
  if (bits.value < 0n || bits.value > BigInt(encoded.length * 8))
    throw new ApiError(409, `dnsresolve of ${where} resolved ${bits.value} bits of ${encoded.length * 8}`);
  if (bits.value % 8n !== 0n) throw new ApiError(409, `dnsresolve of ${where} split the name inside a byte (${bits.value} bits)`);
  return { consumed: Number(bits.value) / 8, value: valueCell };
}

/** A record-set value: exactly one ref and no bits, as tonlib takes them; anything else reads as null. */
const RECORD_REF: DictionaryValue<Cell | null> = {
  serialize: (value, builder) => {
    if (value) builder.storeRef(value);
  },
  parse: (src) => (src.remainingBits === 0 && src.remainingRefs === 1 ? src.loadRef() : null),
};

/** A resolver's whole record set: HashmapE 256 of `^DNSRecord`; values of another form are skipped, as tonlib does. */
function recordSet(root: Cell, name: string): Entry[] {
  const dict = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), RECORD_REF, root);
  const entries: Entry[] = [];
  for (const [key, value] of dict) {
    const entry = value && dnsEntryData(value);
    if (entry) entries.push({ '@type': 'dns.entry', name, category: categoryB64(key), entry });
  }
  return entries;
}

export async function resolveDns(chain: ChainSource, query: DnsQuery): Promise<Resolved> {
  if (query.name.includes('\0')) throw new ApiError(422, 'name: must not contain the NUL character (U+0000)');
  const category = dnsCategory(query.category);
  let resolver = query.address;
  if (!resolver) {
    const param4 = await chain.getConfigParam(4, query.seqno);
    if (!param4) throw new ApiError(409, 'configuration parameter 4 names no root DNS resolver');
    resolver = rootResolverFromConfig4(param4);
  }
  let name = query.name;
  let hops = Math.min(query.ttl, MAX_RESOLVER_HOPS);
  for (;;) {
    const encoded = encodeDnsName(name);
    if (encoded.length > MAX_ENCODED_NAME)
      throw new ApiError(422, `name: at most ${MAX_ENCODED_NAME} bytes once encoded (labels and their zero bytes)`);
    const answer = await askResolver(chain, resolver, encoded, category, query.seqno);
    if (answer.value === null || answer.consumed === 0) return { '@type': 'dns.resolved', entries: [] };
    if (answer.consumed === encoded.length) {
      if (category === 0n) return { '@type': 'dns.resolved', entries: recordSet(answer.value, name) };
      const entry = dnsEntryData(answer.value);
      return { '@type': 'dns.resolved', entries: entry ? [{ '@type': 'dns.entry', name, category: categoryB64(category), entry }] : [] };
    }
    // Partly resolved: the answer is the next resolver for the rest of the name.
    const resolvedName = decodeDnsName(encoded.subarray(0, answer.consumed));
    const entry = dnsEntryData(answer.value);
    if (!entry) return { '@type': 'dns.resolved', entries: [] };
    if (hops === 0 || entry['@type'] !== 'dns.entryDataNextResolver') {
      return {
        '@type': 'dns.resolved',
        entries: [{ '@type': 'dns.entry', name: resolvedName, category: categoryB64(NEXT_RESOLVER), entry }],
      };
    }
    const split = name.length - resolvedName.length;
    const rest = name.slice(0, split);
    if (split < 0 || name.slice(split) !== resolvedName || (rest !== '' && !rest.endsWith('.'))) {
      throw new ApiError(409, `dnsresolve of ${friendly(resolver, false)} split the name away from a label boundary`);
    }
    const next = answer.value.beginParse();
    next.skip(16);
    resolver = stdAddress(next);
    name = rest;
    hops -= 1;
  }
}
