import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { inCidr, ipBytes, parseCidr, refusalReason, type Cidr } from './addresses.js';

/**
 * GET over HTTP(S) to a URL anyone may have written on chain. Each hop (the first URL and every redirect) is
 * checked before a byte is sent: scheme, no credentials, and the host's addresses, every one of which must be public
 * unicast (or allowed by the operator's list). The connection then goes to the address that was checked, never to
 * the name, so a resolver that answers differently the second time (DNS rebinding) cannot move it elsewhere.
 */

/** Name → addresses; the system resolver by default, a stand-in in tests. */
export type Resolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

/** What the operator opened the guard for: host names (whatever they resolve to) and address blocks. */
export interface OutboundPolicy {
  hosts: ReadonlySet<string>;
  nets: readonly Cidr[];
}

/** The destination is not allowed: a private, local or special address, a scheme, credentials. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
}

/** The destination was allowed but the fetch did not give a usable answer (time, size, connection, redirects). */
export class OutboundFailed extends Error {
  override name = 'OutboundFailed';
}

export interface OutboundGetOptions {
  policy: OutboundPolicy;
  /** Schemes a hop may use: of `http` and `https`. */
  schemes: readonly string[];
  /** For the whole chain of hops, from the first lookup to the last byte. */
  timeoutMs: number;
  /** Largest body read; a longer one fails without being downloaded further. */
  maxBytes: number;
  maxRedirects?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  resolve?: Resolver;
}

export interface OutboundResponse {
  status: number;
  /** The URL of the last hop. */
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The body of a 2xx answer; empty for any other status (it is not read). */
  body: Buffer;
}

/** Longest URL followed; longer ones are refused before anything is resolved. */
export const MAX_URL_LENGTH = 2048;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Parses the operator's allow-list: each entry an IP address, a CIDR block or a host name. Throws on others. */
export function outboundPolicy(entries: readonly string[]): OutboundPolicy {
  const hosts = new Set<string>();
  const nets: Cidr[] = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const bare = entry.replace(/^\[(.*)\](\/\d+)?$/, '$1$2');
    if (ipBytes(bare.split('/')[0]!)) nets.push(parseCidr(bare));
    else if (HOST_NAME.test(entry) && !entry.includes('/')) hosts.add(normalHost(entry));
    else throw new Error(`not a host name, IP address or CIDR block: ${entry}`);
  }
  return { hosts, nets };
}

/** A policy that opens nothing: only public unicast destinations. */
export const PUBLIC_ONLY: OutboundPolicy = { hosts: new Set(), nets: [] };

function normalHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '');
}

/** The URL a hop may go to, or a refusal naming why not. */
export function checkUrl(input: string | URL, schemes: readonly string[]): URL {
  const text = typeof input === 'string' ? input : input.href;
  if (text.length > MAX_URL_LENGTH) throw new OutboundRefused(`URL longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefused('not a URL');
  }
  const scheme = url.protocol.slice(0, -1);
  if (!schemes.includes(scheme) || (scheme !== 'http' && scheme !== 'https')) throw new OutboundRefused(`scheme ${scheme} is not allowed`);
  if (url.username || url.password) throw new OutboundRefused('credentials in the URL are not allowed');
  if (!url.hostname) throw new OutboundRefused('no host');
  return url;
}

/** The address a hop connects to, after every address of its host was checked. */
async function destination(
  url: URL,
  policy: OutboundPolicy,
  resolve: Resolver,
  signal: AbortSignal,
): Promise<{ address: string; family: number }> {
  const host = normalHost(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  const allowedByNet = (address: string) => {
    const bytes = ipBytes(address);
    return bytes !== null && policy.nets.some((net) => inCidr(bytes, net));
  };
  const literal = isIP(host);
  if (literal) {
    const why = allowedByNet(host) ? null : refusalReason(host);
    if (why) throw new OutboundRefused(why);
    return { address: host, family: literal };
  }
  if (!HOST_NAME.test(host)) throw new OutboundRefused(`not a host name: ${host.slice(0, 64)}`);
  const addresses = await abortable(resolve(host), signal).catch((e: Error) => {
    if (signal.aborted) throw e;
    throw new OutboundFailed(`${host} does not resolve: ${(e as NodeJS.ErrnoException).code ?? e.message}`);
  });
  if (addresses.length === 0) throw new OutboundFailed(`${host} does not resolve`);
  if (!policy.hosts.has(host)) {
    for (const { address } of addresses) {
      const why = allowedByNet(address) ? null : refusalReason(address);
      if (why) throw new OutboundRefused(`${host} resolves to ${why}`);
    }
  }
  return addresses[0]!;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** The connection never looks a name up itself: it is given the checked address. */
const noLookup = ((hostname: string, _options: unknown, callback: (err: Error) => void) =>
  callback(new OutboundRefused(`unexpected lookup of ${hostname}`))) as unknown as http.RequestOptions['lookup'];

/** One request to a checked address; the body is read only for a 2xx answer, and only up to maxBytes. */
function request(
  url: URL,
  to: { address: string; family: number },
  options: OutboundGetOptions,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = (secure ? https : http).request(
      {
        host: to.address,
        family: to.family,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { ...options.headers, host: url.host },
        // Certificates are checked against the name the URL gave, not the address connected to.
        servername: secure && !isIP(host) ? host : undefined,
        lookup: noLookup,
        agent: false,
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const done = (body: Buffer) => resolve({ status, url: url.href, headers: res.headers, body });
        if (status < 200 || status > 299) {
          res.destroy();
          return done(Buffer.alloc(0));
        }
        const declared = Number(res.headers['content-length'] ?? NaN);
        if (declared > options.maxBytes) {
          reject(new OutboundFailed(`document larger than ${options.maxBytes} bytes`));
          return void res.destroy();
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            reject(new OutboundFailed(`document larger than ${options.maxBytes} bytes`));
            res.destroy();
          } else chunks.push(chunk);
        });
        res.on('end', () => done(Buffer.concat(chunks)));
        res.on('error', reject);
        res.on('aborted', () => reject(new OutboundFailed('connection closed before the end of the document')));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Fetches a URL with every hop checked (see the module comment). Refusals throw OutboundRefused; time, size,
 * connection and redirect failures throw OutboundFailed; an abort of the caller's signal rethrows its reason.
 */
export async function outboundGet(input: string | URL, options: OutboundGetOptions): Promise<OutboundResponse> {
  const { policy, schemes, timeoutMs, maxRedirects = 3, resolve = systemResolver } = options;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let url = checkUrl(input, schemes);
  try {
    for (let hop = 0; ; hop++) {
      const to = await destination(url, policy, resolve, signal).catch((e: Error) => {
        throw hop > 0 && e instanceof OutboundRefused ? new OutboundRefused(`redirect refused: ${e.message}`) : e;
      });
      const res = await request(url, to, options, signal);
      const location = res.headers.location;
      if (!REDIRECTS.has(res.status) || !location) return res;
      if (hop >= maxRedirects) throw new OutboundFailed(`more than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new OutboundRefused('redirect to something that is not a URL');
      }
      try {
        url = checkUrl(next, schemes);
      } catch (e) {
        throw new OutboundRefused(`redirect refused: ${(e as Error).message}`);
      }
    }
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason ?? e;
    if (deadline.aborted) throw new OutboundFailed(`no answer within ${timeoutMs} ms`);
    if (e instanceof OutboundRefused || e instanceof OutboundFailed) throw e;
    throw new OutboundFailed(`fetch failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
