import { outboundGet, OutboundFailed, OutboundRefused, PUBLIC_ONLY, type OutboundPolicy, type Resolver } from '@tongate/outbound';
import { cacheMetadataDocument, contentUriPage, type AddressMetadataTable, type TokenContentType } from '@tongate/read-model';
import type { ChainDatabase } from '@tongate/store';
import type { Insertable, Kysely } from 'kysely';
import type { IndexerLogger } from './indexer.js';

/**
 * Off-chain token metadata: a background worker that fetches the TEP-64 documents jetton masters, NFT collections
 * and NFT items point to (their content's `uri`), and caches them in `address_metadata` until they expire. Requests
 * never wait for it: /metadata and the lists answer from the cache, with `is_indexed: false` until a document is
 * there. Anyone can deploy a token whose URI names an internal address, so every fetch goes through the outbound
 * guard (public unicast destinations only, each redirect checked, the checked address connected to), and is bounded
 * (allowed schemes only, a time limit, a size limit, a few at a time). A failure or refusal is cached too
 * (valid = false, with the reason), retried after a tenth of the expiry.
 */

export interface MetadataFetcherOptions {
  db: Kysely<ChainDatabase>;
  /** Allowed URI schemes: `http`, `https`, `ipfs` (through `ipfsGateway`). */
  schemes: readonly string[];
  ipfsGateway: string;
  /** What the operator opened the outbound guard for (private mirrors, an own IPFS gateway); nothing by default. */
  policy?: OutboundPolicy;
  /** Name resolution of the guard; the system resolver unless a test stands in. */
  resolve?: Resolver;
  timeoutMs: number;
  maxBytes: number;
  ttlSeconds: number;
  /** Pause between rounds when there was nothing to fetch. */
  idleMs?: number;
  /** Documents fetched per round, and at once. */
  batchSize?: number;
  concurrency?: number;
  logger?: IndexerLogger;
  network?: string;
}

type TokenType = TokenContentType;

interface Due {
  address: string;
  type: TokenType;
  uri: string;
}

/** Top-level TokenInfo fields; every other field of the document goes to `extra`. */
const TOP_LEVEL = ['name', 'symbol', 'description', 'image'] as const;
/** A document's `extra` keeps at most this many fields, each at most this long when serialized. */
const EXTRA_FIELDS_MAX = 32;
const EXTRA_VALUE_MAX = 4096;

export class MetadataFetchError extends Error {}

/** The http(s) URL a content URI is fetched from, or an error naming why it is not fetched. */
export function fetchUrl(uri: string, schemes: readonly string[], ipfsGateway: string): URL {
  let url: URL;
  try {
    url = new URL(uri.trim());
  } catch {
    throw new MetadataFetchError('not a URL');
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (!schemes.includes(scheme)) throw new MetadataFetchError(`scheme ${scheme} is not allowed`);
  if (scheme === 'ipfs')
    return new URL(`${url.host}${url.pathname}${url.search}`, ipfsGateway.endsWith('/') ? ipfsGateway : `${ipfsGateway}/`);
  if (scheme !== 'http' && scheme !== 'https') throw new MetadataFetchError(`scheme ${scheme} cannot be fetched`);
  return url;
}

/** A TEP-64 JSON document → the cached columns (strings only at the top level; bounded extras). */
export function documentFields(
  text: string,
): Pick<Insertable<AddressMetadataTable>, 'name' | 'symbol' | 'description' | 'image' | 'extra'> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new MetadataFetchError('not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new MetadataFetchError('not a JSON object');
  const fields = doc as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if ((TOP_LEVEL as readonly string[]).includes(key) || key === 'image_data') continue;
    if (Object.keys(extra).length >= EXTRA_FIELDS_MAX) break;
    // Numbers such as decimals are served as strings, the way on-chain content has them.
    const v = typeof value === 'number' ? String(value) : value;
    if (JSON.stringify(v ?? null).length <= EXTRA_VALUE_MAX) extra[key] = v;
  }
  return {
    name: str(fields.name),
    symbol: str(fields.symbol),
    description: str(fields.description),
    image: str(fields.image),
    extra: JSON.stringify(Object.keys(extra).length > 0 ? extra : null),
  };
}

/** Token tables with content, walked in this order. */
const SOURCES: readonly TokenType[] = ['jetton_masters', 'nft_collections', 'nft_items'];
/** Rows of a token table looked at per round. */
const SCAN_PAGE = 1000;

/** Fetches since start, by outcome: a document, a failure (time, size, status, format), a refused destination. */
export interface MetadataFetchCounts {
  fetched: number;
  failed: number;
  refused: number;
}

/** Schemes a hop may use: the allowed web schemes, and the gateway's when `ipfs` is allowed. */
function hopSchemes(schemes: readonly string[], ipfsGateway: string): string[] {
  const out = new Set<string>(schemes.filter((s) => s === 'http' || s === 'https'));
  if (schemes.includes('ipfs')) out.add(new URL(ipfsGateway).protocol.slice(0, -1));
  return [...out];
}

export class MetadataFetcher {
  private readonly abort = new AbortController();
  private readonly counts: MetadataFetchCounts = { fetched: 0, failed: 0, refused: 0 };
  private readonly cursors: Record<TokenType, string> = { jetton_masters: '', nft_collections: '', nft_items: '' };
  private loop: Promise<void> | undefined;

  constructor(private readonly options: MetadataFetcherOptions) {}

  start(): void {
    this.loop = this.run();
  }

  status(): MetadataFetchCounts {
    return { ...this.counts };
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  /**
   * Token contents whose document is missing, stale (another URI) or expired. Each table is walked in address order
   * a page at a time from where the last call stopped (wrapping around at its end), so that a round costs one bounded
   * index scan per table however many tokens there are.
   */
  async due(limit: number, now = Math.floor(Date.now() / 1000)): Promise<Due[]> {
    const { db } = this.options;
    const out: Due[] = [];
    for (const type of SOURCES) {
      if (out.length >= limit) break;
      const rows = await contentUriPage(db, type, this.cursors[type], SCAN_PAGE);
      this.cursors[type] = rows.length < SCAN_PAGE ? '' : rows.at(-1)!.address;
      for (const [i, r] of rows.entries()) {
        if (r.uri === null || (r.cached_uri === r.uri && r.expires_at! > now)) continue;
        out.push({ address: r.address, type, uri: r.uri });
        if (out.length >= limit) {
          // The rest of the page is looked at next time (from the start, when this was the table's last row).
          if (i < rows.length - 1 || rows.length === SCAN_PAGE) this.cursors[type] = r.address;
          break;
        }
      }
    }
    return out;
  }

  /** Fetches one document and caches the result (the document, or why there is none). */
  async fetchOne(item: Due): Promise<void> {
    const { timeoutMs, maxBytes, ttlSeconds, schemes, ipfsGateway, db, policy = PUBLIC_ONLY, resolve, logger, network } = this.options;
    const now = Math.floor(Date.now() / 1000);
    let row: Insertable<AddressMetadataTable>;
    try {
      const url = fetchUrl(item.uri, schemes, ipfsGateway);
      const res = await outboundGet(url, {
        policy,
        resolve,
        schemes: hopSchemes(schemes, ipfsGateway),
        timeoutMs,
        maxBytes,
        signal: this.abort.signal,
        headers: { accept: 'application/json' },
      });
      if (res.status < 200 || res.status > 299) throw new MetadataFetchError(`HTTP ${res.status}`);
      const fields = documentFields(res.body.toString('utf8'));
      row = {
        address: item.address,
        type: item.type,
        uri: item.uri,
        valid: true,
        refused: false,
        error: null,
        ...fields,
        updated_at: now,
        expires_at: now + ttlSeconds,
      };
      this.counts.fetched++;
    } catch (e) {
      if (this.abort.signal.aborted) return;
      const refused = e instanceof OutboundRefused;
      const reason = refused
        ? `refused: ${(e as Error).message}`
        : e instanceof MetadataFetchError || e instanceof OutboundFailed
          ? e.message
          : `fetch failed: ${(e as Error).message}`;
      if (refused) {
        this.counts.refused++;
        logger?.warn({ network, address: item.address, uri: item.uri.slice(0, 256), reason }, 'metadata fetch refused');
      } else this.counts.failed++;
      const retryAfter = Math.max(1, Math.floor(ttlSeconds / 10));
      row = {
        address: item.address,
        type: item.type,
        uri: item.uri,
        valid: false,
        refused,
        error: reason,
        name: null,
        symbol: null,
        description: null,
        image: null,
        extra: JSON.stringify(null),
        updated_at: now,
        expires_at: now + retryAfter,
      };
    }
    await cacheMetadataDocument(db, row);
  }

  /** One round: fetches up to batchSize due documents, a few at a time. Returns how many were due. */
  async runOnce(): Promise<number> {
    const { batchSize = 32, concurrency = 4 } = this.options;
    const due = await this.due(batchSize);
    for (let i = 0; i < due.length && !this.abort.signal.aborted; i += concurrency)
      await Promise.all(due.slice(i, i + concurrency).map((d) => this.fetchOne(d)));
    return due.length;
  }

  private async run(): Promise<void> {
    const { idleMs = 5_000, logger, network } = this.options;
    const signal = this.abort.signal;
    while (!signal.aborted) {
      let worked = 0;
      try {
        worked = await this.runOnce();
      } catch (err) {
        logger?.warn({ err, network }, 'metadata fetcher: round failed');
      }
      if (worked === 0 && !signal.aborted)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, idleMs);
          signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
    }
  }
}
