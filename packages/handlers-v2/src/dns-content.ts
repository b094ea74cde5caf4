import { sha256_sync } from '@ton/crypto';
import { type Address, type Cell, Dictionary, type Slice } from '@ton/core';

/**
 * TEP-81 DNS records of a TON DNS item, decoded the way toncenter shows them in getTokenData: a record per category,
 * named `wallet`, `site`, `storage`, `dns_next_resolver` or else the category hash in hex.
 */

const CATEGORIES = ['wallet', 'site', 'storage', 'dns_next_resolver'];
const CATEGORY_BY_HASH = new Map(CATEGORIES.map((c) => [Buffer.from(sha256_sync(c)).toString('hex'), c]));

type SmcAddr = { '@type': 'addr_std'; workchain_id: number; address: string };
export type DnsRecord =
  | { '@type': 'dns_smc_address'; smc_addr: SmcAddr }
  | { '@type': 'dns_adnl_address'; adnl_addr: string }
  | { '@type': 'dns_storage_address'; bag_id: string }
  | { '@type': 'dns_next_resolver'; resolver: SmcAddr };

function addrStd(s: Slice): SmcAddr {
  // Only addr_std without anycast is accepted, as toncenter does (a record with another address kind is skipped).
  if (s.preloadUint(3) !== 0b100) throw new Error('only addr_std is supported');
  const a: Address = s.loadAddress();
  return { '@type': 'addr_std', workchain_id: a.workChain, address: a.hash.toString('hex') };
}

/** One DNSRecord (dns_smc_address#9fd3, dns_next_resolver#ba93, dns_adnl_address#ad01, dns_storage_address#7473). */
export function parseDnsRecord(cell: Cell): DnsRecord {
  const s = cell.beginParse();
  const tag = s.loadUint(16);
  switch (tag) {
    case 0x9fd3:
      return { '@type': 'dns_smc_address', smc_addr: addrStd(s) };
    case 0xba93:
      return { '@type': 'dns_next_resolver', resolver: addrStd(s) };
    case 0xad01:
      return { '@type': 'dns_adnl_address', adnl_addr: s.loadBuffer(32).toString('hex') };
    case 0x7473:
      return { '@type': 'dns_storage_address', bag_id: s.loadBuffer(32).toString('hex') };
    default:
      throw new Error(`unknown DNS record tag 0x${tag.toString(16)}`);
  }
}

/**
 * The records dictionary (HashmapE 256 ^DNSRecord, given as its root cell) as category → record. Values that are not
 * DNS records — a DNS item keeps its TEP-64 name/description/image in the same dictionary — are left out.
 * Unknown categories are keyed by their hash in upper-case hex, as toncenter prints them.
 */
export function parseDnsRecords(root: Cell): Record<string, DnsRecord> {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), root);
  const out: Record<string, DnsRecord> = {};
  for (const [key, value] of dict) {
    let record: DnsRecord;
    try {
      record = parseDnsRecord(value);
    } catch {
      continue;
    }
    const hex = key.toString('hex');
    out[CATEGORY_BY_HASH.get(hex) ?? hex.toUpperCase()] = record;
  }
  return out;
}
