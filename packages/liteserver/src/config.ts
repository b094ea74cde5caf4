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

/** A masterchain block the operator trusts (validator.init_block): where the signature chain to the head starts. */
export interface TrustedBlock {
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export interface GlobalConfig {
  liteservers: LiteserverEndpoint[];
  zeroState: ZeroState | null;
  /** validator.init_block, a recent key block (tonlib's start); null when absent (the zero state is the start then). */
  initBlock: TrustedBlock | null;
  /**
   * tongate.trusted_block_file: where the newest key block the signature chain proved is kept across restarts (so a
   * restart does not walk again from init_block); null = kept in memory only.
   */
  trustedBlockFile: string | null;
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
  type BlockJson = { workchain?: unknown; shard?: unknown; seqno?: unknown; root_hash?: unknown; file_hash?: unknown };
  const doc = json as {
    liteservers?: unknown;
    validator?: { zero_state?: BlockJson; init_block?: BlockJson };
    tongate?: { trusted_block_file?: unknown };
  };
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
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return void skipped.push(`${label}: port ${JSON.stringify(port)} is not a TCP port`);
    if (keyType !== undefined && keyType !== 'pub.ed25519') return void skipped.push(`${label}: key type ${keyType} is not pub.ed25519`);
    if (!key || key.length !== 32) return void skipped.push(`${label}: id.key is not a 32-byte base64 ed25519 key`);
    liteservers.push({ host, port, publicKey: key, name: `${host}:${port}` });
  });
  if (liteservers.length === 0)
    throw new GlobalConfigError(`global config lists no usable liteserver${skipped.length ? ` (${skipped.join('; ')})` : ''}`);
  const z = doc.validator?.zero_state;
  let zeroState: ZeroState | null = null;
  if (z) {
    const rootHash = hash32(z.root_hash);
    const fileHash = hash32(z.file_hash);
    if (!rootHash || !fileHash || typeof z.workchain !== 'number')
      throw new GlobalConfigError('validator.zero_state needs workchain, root_hash and file_hash');
    zeroState = { workchain: z.workchain, rootHash, fileHash };
  }
  const initBlock = doc.validator?.init_block ? parseTrustedBlock(doc.validator.init_block, 'validator.init_block') : null;
  const file = doc.tongate?.trusted_block_file;
  if (file !== undefined && (typeof file !== 'string' || file.length === 0))
    throw new GlobalConfigError('tongate.trusted_block_file must be a file path');
  return { liteservers, zeroState, initBlock, trustedBlockFile: file ?? null, skipped };
}

/** A masterchain block in the global config's format (init_block: workchain, shard, seqno, root_hash, file_hash). */
export function parseTrustedBlock(
  raw: { workchain?: unknown; seqno?: unknown; root_hash?: unknown; file_hash?: unknown },
  what: string,
): TrustedBlock {
  const rootHash = hash32(raw.root_hash);
  const fileHash = hash32(raw.file_hash);
  const seqno = raw.seqno;
  if (!rootHash || !fileHash || typeof seqno !== 'number' || !Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) {
    throw new GlobalConfigError(`${what} needs seqno, root_hash and file_hash`);
  }
  if (raw.workchain !== undefined && raw.workchain !== -1)
    throw new GlobalConfigError(`${what} must be a masterchain block (workchain -1)`);
  return { seqno, rootHash, fileHash };
}
