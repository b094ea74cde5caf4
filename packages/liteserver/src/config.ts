/**
 * The TON global config (the file the official mainnet/testnet URLs serve): the liteservers and the zero state.
 * Parsed leniently, as found in the wild: `ip` as a signed or unsigned 32-bit integer (or a dotted string), extra
 * fields anywhere, servers with a key we cannot use skipped with a reason instead of failing the whole file.
 */

export interface LiteserverEndpoint {
  host: string;
  port: number;
  /** ed25519 public key. */
  publicKey: Buffer;
  /** host:port, for logs and metrics. */
  name: string;
}

export interface ZeroState {
  workchain: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface GlobalConfig {
  liteservers: LiteserverEndpoint[];
  zeroState: ZeroState | null;
  /** Servers left out, with the reason. */
  skipped: string[];
}

export class GlobalConfigError extends Error {
  override name = 'GlobalConfigError';
}

function ipOf(raw: unknown): string | null {
  if (typeof raw === 'string' && /^\d{1,3}(\.\d{1,3}){3}$/.test(raw)) return raw;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < -(2 ** 31) || raw > 2 ** 32 - 1) return null;
  const u = raw >>> 0;
  return [u >>> 24, (u >>> 16) & 255, (u >>> 8) & 255, u & 255].join('.');
}

function hash32(raw: unknown): Buffer | null {
  if (typeof raw !== 'string') return null;
  const b = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return b.length === 32 ? b : null;
}

export function parseGlobalConfig(json: unknown): GlobalConfig {
  if (typeof json !== 'object' || json === null) throw new GlobalConfigError('global config must be a JSON object');
  const doc = json as { liteservers?: unknown; validator?: { zero_state?: { workchain?: unknown; root_hash?: unknown; file_hash?: unknown } } };
  if (!Array.isArray(doc.liteservers)) throw new GlobalConfigError('global config has no "liteservers" list');
  const liteservers: LiteserverEndpoint[] = [];
  const skipped: string[] = [];
  doc.liteservers.forEach((entry: any, i: number) => {
    const host = ipOf(entry?.ip);
    const port = entry?.port;
    const keyType = entry?.id?.['@type'];
    const key = typeof entry?.id?.key === 'string' ? Buffer.from(entry.id.key, 'base64') : null;
    const label = `liteservers[${i}]`;
    if (!host) return void skipped.push(`${label}: ip ${JSON.stringify(entry?.ip)} is not an IPv4 address`);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return void skipped.push(`${label}: port ${JSON.stringify(port)} is not a TCP port`);
    if (keyType !== undefined && keyType !== 'pub.ed25519') return void skipped.push(`${label}: key type ${keyType} is not pub.ed25519`);
    if (!key || key.length !== 32) return void skipped.push(`${label}: id.key is not a 32-byte base64 ed25519 key`);
    liteservers.push({ host, port, publicKey: key, name: `${host}:${port}` });
  });
  if (liteservers.length === 0) throw new GlobalConfigError(`global config lists no usable liteserver${skipped.length ? ` (${skipped.join('; ')})` : ''}`);
  const z = doc.validator?.zero_state;
  let zeroState: ZeroState | null = null;
  if (z) {
    const rootHash = hash32(z.root_hash);
    const fileHash = hash32(z.file_hash);
    if (!rootHash || !fileHash || typeof z.workchain !== 'number') throw new GlobalConfigError('validator.zero_state needs workchain, root_hash and file_hash');
    zeroState = { workchain: z.workchain, rootHash, fileHash };
  }
  return { liteservers, zeroState, skipped };
}
