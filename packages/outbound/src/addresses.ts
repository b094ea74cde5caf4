import { isIP } from 'node:net';

/**
 * Which IP addresses an outbound fetch may connect to: public unicast only. The ranges below are the IANA
 * special-purpose registries (RFC 6890 and its updates) for both families; an address in any of them is refused.
 * IPv6 is further limited to global unicast (2000::/3), so every other allocation (ULA, link-local, multicast,
 * the IPv4-compatible and IPv4-mapped forms) is refused by default rather than by enumeration. Addresses that embed
 * an IPv4 address (IPv4-mapped, NAT64) are judged by the address they embed.
 */

/** An address as 4 or 16 bytes. */
type Bytes = Uint8Array;

export interface Cidr {
  bytes: Bytes;
  prefix: number;
  text: string;
}

const V4_SPECIAL: Array<[string, string]> = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private (RFC 1918)'],
  ['100.64.0.0/10', 'shared address space (CGNAT)'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private (RFC 1918)'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation (TEST-NET-1)'],
  ['192.88.99.0/24', 'reserved (6to4 relay anycast)'],
  ['192.168.0.0/16', 'private (RFC 1918)'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'],
];

const V6_SPECIAL: Array<[string, string]> = [
  ['2001::/23', 'IETF protocol assignments (Teredo, ORCHID, benchmarking)'],
  ['2001:db8::/32', 'documentation'],
  ['2002::/16', '6to4'],
  ['3fff::/20', 'documentation'],
];

const V6_GLOBAL = parseCidr('2000::/3');
const V4_MAPPED = parseCidr('::ffff:0:0/96');
const V4_NAT64 = parseCidr('64:ff9b::/96');

const v4Special = V4_SPECIAL.map(([cidr, why]) => ({ net: parseCidr(cidr), why }));
const v6Special = V6_SPECIAL.map(([cidr, why]) => ({ net: parseCidr(cidr), why }));

/** An IP literal as bytes, or null when the text is not one. IPv6 zone ids (`%eth0`) are not accepted. */
export function ipBytes(text: string): Bytes | null {
  const family = text.includes('%') ? 0 : isIP(text);
  if (family === 4) return Uint8Array.from(text.split('.').map(Number));
  if (family !== 6) return null;
  let head = text;
  let tailV4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    tailV4 = text
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    head = text.slice(0, lastColon + 1) + '0:0';
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const l = groups(left);
  const r = right === undefined ? [] : groups(right);
  const words = right === undefined ? l : [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  const out = new Uint8Array(16);
  words.forEach((w, i) => {
    const v = parseInt(w, 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  });
  if (tailV4.length === 4) out.set(tailV4, 12);
  return out;
}

/** `a.b.c.d/n` or `x:y::/n` (a bare address is a /32 or /128). Throws on anything else. */
export function parseCidr(text: string): Cidr {
  const [addr, len, extra] = text.trim().split('/');
  const bytes = addr === undefined ? null : ipBytes(addr);
  const max = bytes ? bytes.length * 8 : 0;
  const prefix = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!bytes || extra !== undefined || !(prefix >= 0 && prefix <= max)) throw new Error(`not an IP address or CIDR block: ${text}`);
  return { bytes, prefix, text: text.trim() };
}

export function inCidr(bytes: Bytes, net: Cidr): boolean {
  if (bytes.length !== net.bytes.length) return false;
  const full = net.prefix >> 3;
  for (let i = 0; i < full; i++) if (bytes[i] !== net.bytes[i]) return false;
  const rest = net.prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[full]! & mask) === (net.bytes[full]! & mask);
}

/** The IPv4 address an IPv6 address stands for (IPv4-mapped or NAT64 well-known prefix), else null. */
function embeddedV4(bytes: Bytes): Bytes | null {
  return inCidr(bytes, V4_MAPPED) || inCidr(bytes, V4_NAT64) ? bytes.slice(12) : null;
}

/**
 * Why an address may not be connected to, or null when it is public unicast. Addresses that embed an IPv4 address
 * are refused for what they embed (so `::ffff:127.0.0.1` is loopback).
 */
export function refusalReason(address: string): string | null {
  const bytes = ipBytes(address);
  if (!bytes) return `${address} is not an IP address`;
  return refusalOf(bytes, address);
}

function refusalOf(bytes: Bytes, shown: string): string | null {
  if (bytes.length === 4) {
    const hit = v4Special.find(({ net }) => inCidr(bytes, net));
    return hit ? `${shown} is ${hit.why}` : null;
  }
  const v4 = embeddedV4(bytes);
  if (v4) {
    const inner = refusalOf(v4, Array.from(v4).join('.'));
    return inner ? `${shown} embeds ${inner}` : null;
  }
  if (!inCidr(bytes, V6_GLOBAL))
    return `${shown} is not IPv6 global unicast (loopback, unspecified, IPv4-compatible, ULA, link-local, multicast or reserved)`;
  const hit = v6Special.find(({ net }) => inCidr(bytes, net));
  return hit ? `${shown} is ${hit.why}` : null;
}
