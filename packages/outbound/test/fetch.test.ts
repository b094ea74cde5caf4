/**
 * The guard with real sockets. An "internal service" listens on 127.0.0.1 and counts what reaches it; a stand-in
 * for a public server listens on 127.0.0.2, opened for the test by an allow-list entry (by address block or by
 * name), so every way of pointing a fetch at the internal service can be tried: directly, by a name that resolves
 * to it, through a redirect, in IPv4-mapped, decimal and hex forms, and by a resolver that answers public first and
 * loopback next. None of them may reach it.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  outboundGet,
  outboundPolicy,
  OutboundFailed,
  OutboundRefused,
  PUBLIC_ONLY,
  type OutboundGetOptions,
  type Resolver,
} from '../src/index.js';

let internal: Server;
let outside: Server;
let internalPort: number;
let outsidePort: number;
let internalHits = 0;
let outsideHits = 0;

const listen = (server: Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));

beforeAll(async () => {
  internal = createServer((req, res) => {
    internalHits++;
    res.end(JSON.stringify({ secret: 'internal', url: req.url }));
  });
  outside = createServer((req, res) => {
    outsideHits++;
    const url = new URL(req.url!, 'http://x');
    const to = url.searchParams.get('to');
    if (to) {
      res.writeHead(302, { location: to });
      return res.end();
    }
    if (url.pathname === '/loop') {
      res.writeHead(301, { location: '/loop' });
      return res.end();
    }
    if (url.pathname === '/hang') return; // accepts, never answers
    if (url.pathname === '/trickle') {
      res.write('{');
      return void setInterval(() => res.write(' '), 50).unref();
    }
    res.end(JSON.stringify({ name: 'outside', host: req.headers.host }));
  });
  internalPort = await listen(internal, '127.0.0.1');
  outsidePort = await listen(outside, '127.0.0.2');
});

afterAll(() => {
  internal?.closeAllConnections();
  outside?.closeAllConnections();
  internal?.close();
  outside?.close();
});

const base = (policy = outboundPolicy(['127.0.0.2/32']), extra: Partial<OutboundGetOptions> = {}): OutboundGetOptions => ({
  policy,
  schemes: ['http', 'https'],
  timeoutMs: 1_000,
  maxBytes: 4096,
  ...extra,
});

async function refusedWithoutContact(url: string, options = base(), why: RegExp = /./) {
  const before = internalHits;
  const err = await outboundGet(url, options).catch((e: Error) => e);
  expect(err, url).toBeInstanceOf(OutboundRefused);
  expect((err as Error).message).toMatch(why);
  expect(internalHits, `${url} reached the internal service`).toBe(before);
}

describe('destinations', () => {
  it('fetches from an allowed destination, sending the URL host as Host', async () => {
    const res = await outboundGet(`http://127.0.0.2:${outsidePort}/doc.json`, base());
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ name: 'outside', host: `127.0.0.2:${outsidePort}` });
  });

  it('refuses the internal service directly', async () => {
    await refusedWithoutContact(`http://127.0.0.1:${internalPort}/`, base(), /127\.0\.0\.1 is loopback/);
    await refusedWithoutContact(`http://127.0.0.1:${internalPort}/`, base(PUBLIC_ONLY), /loopback/);
  });

  it('refuses it in IPv4-mapped IPv6, decimal, hex, octal and short forms', async () => {
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f000001', '0x7f.0.0.1', '0177.0.0.1', '127.1'])
      await refusedWithoutContact(`http://${host}:${internalPort}/`, base(), /loopback/);
  });

  it('refuses a host name that resolves to it, or to any private address among public ones', async () => {
    const resolve: Resolver = async (name) =>
      name === 'both.example'
        ? [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ]
        : [{ address: '127.0.0.1', family: 4 }];
    await refusedWithoutContact(
      `http://metadata.example:${internalPort}/`,
      base(undefined, { resolve }),
      /metadata\.example resolves to 127\.0\.0\.1 is loopback/,
    );
    await refusedWithoutContact(
      `http://both.example:${internalPort}/`,
      base(undefined, { resolve }),
      /both\.example resolves to 127\.0\.0\.1/,
    );
    // The system resolver's own answer for localhost, too.
    await refusedWithoutContact(`http://localhost:${internalPort}/`, base(), /localhost resolves to/);
  });

  it('checks every redirect hop, and a refused one ends the fetch', async () => {
    const resolve: Resolver = async (name) => [{ address: name === 'redirector.example' ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    // The redirector is opened by name only: what it redirects to is checked like any other destination.
    const policy = outboundPolicy(['redirector.example']);
    for (const to of [
      `http://127.0.0.1:${internalPort}/`,
      `http://[::ffff:127.0.0.1]:${internalPort}/`,
      `http://internal.example:${internalPort}/`,
      `http://2130706433:${internalPort}/`,
    ])
      await refusedWithoutContact(
        `http://redirector.example:${outsidePort}/r?to=${encodeURIComponent(to)}`,
        base(policy, { resolve }),
        /^redirect refused: .*loopback/,
      );
    await refusedWithoutContact(
      `http://redirector.example:${outsidePort}/r?to=${encodeURIComponent('file:///etc/passwd')}`,
      base(policy, { resolve }),
      /redirect refused: scheme file/,
    );
    await refusedWithoutContact(
      `http://redirector.example:${outsidePort}/r?to=${encodeURIComponent('http://u:p@redirector.example/')}`,
      base(policy, { resolve }),
      /credentials/,
    );
    // A redirect that stays on allowed ground is followed.
    const ok = await outboundGet(
      `http://redirector.example:${outsidePort}/r?to=${encodeURIComponent('/final.json')}`,
      base(policy, { resolve }),
    );
    expect(ok).toMatchObject({ status: 200, url: `http://redirector.example:${outsidePort}/final.json` });
  });

  it('follows at most a few redirects', async () => {
    const err = await outboundGet(`http://127.0.0.2:${outsidePort}/loop`, base()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(OutboundFailed);
    expect((err as Error).message).toBe('more than 3 redirects');
  });

  it('connects to the address it checked: a resolver that answers public, then loopback, never moves it', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const before = { internal: internalHits, outside: outsideHits };
    const res = await outboundGet(`http://rebind.example:${outsidePort}/doc.json`, base(undefined, { resolve: rebinding }));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString()).name).toBe('outside');
    expect(calls).toBe(1);
    expect(outsideHits).toBe(before.outside + 1);
    expect(internalHits).toBe(before.internal);
    // Same port on both addresses: only the checked address could have answered.
    const samePort = createServer((_req, res) => (internalHits++, res.end('{"secret":1}')));
    await new Promise<void>((resolve) => samePort.listen(outsidePort, '127.0.0.1', resolve));
    try {
      calls = 0;
      const again = await outboundGet(`http://rebind.example:${outsidePort}/doc.json`, base(undefined, { resolve: rebinding }));
      expect(JSON.parse(again.body.toString()).name).toBe('outside');
      expect(internalHits).toBe(before.internal);
    } finally {
      samePort.close();
    }
  });
});

describe('hostile URLs and servers', () => {
  it.each([
    ['huge', `http://127.0.0.2/${'a'.repeat(5000)}`, /longer than 2048/],
    ['not a URL', 'http://', /not a URL/],
    ['no scheme', '//127.0.0.2/x', /not a URL/],
    ['file', 'file:///etc/passwd', /scheme file is not allowed/],
    ['data', 'data:application/json,{}', /scheme data is not allowed/],
    ['javascript', 'javascript:alert(1)', /scheme javascript is not allowed/],
    ['gopher', 'gopher://127.0.0.2:70/_x', /scheme gopher is not allowed/],
    ['ftp', 'ftp://127.0.0.2/x', /scheme ftp is not allowed/],
    ['credentials', 'http://admin:secret@127.0.0.2/x', /credentials/],
    ['user only', 'http://admin@127.0.0.2/x', /credentials/],
    ['unspecified', 'http://0.0.0.0/', /unspecified/],
    ['zero', 'http://0/', /unspecified/],
    ['metadata service', 'http://169.254.169.254/latest/meta-data/', /link-local/],
    ['private', 'http://10.0.0.5/', /private/],
    ['IPv6 loopback', 'http://[::1]/', /global unicast/],
    ['IPv6 ULA', 'http://[fd00::1]/', /global unicast/],
    ['IPv6 link-local', 'http://[fe80::1]/', /global unicast/],
    ['documentation', 'http://192.0.2.1/', /documentation/],
    ['odd host', 'http://exa mple.com/', /not a URL/],
    ['NUL in host', 'http://127.0.0.2\u0000.example/', /not a URL/],
    ['unclosed IPv6', 'http://[::1/', /not a URL/],
    ['long label', `http://${'a'.repeat(64)}.example/`, /not a host name/],
  ])('%s', async (_name, url, why) => {
    await refusedWithoutContact(url, base(PUBLIC_ONLY), why);
  });

  it('a server that never answers, a trickling one and a resolver that hangs all end at the time limit', async () => {
    const hang: Resolver = () => new Promise(() => {});
    for (const [url, options] of [
      [`http://127.0.0.2:${outsidePort}/hang`, base()],
      [`http://127.0.0.2:${outsidePort}/trickle`, base(undefined, { maxBytes: 1 << 20 })],
      [`http://slow.example:${outsidePort}/`, base(undefined, { resolve: hang })],
    ] as const) {
      const started = Date.now();
      const err = await outboundGet(url, { ...options, timeoutMs: 300 }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(OutboundFailed);
      expect((err as Error).message).toBe('no answer within 300 ms');
      expect(Date.now() - started).toBeLessThan(1_500);
    }
  });

  it('stops reading past the size limit', async () => {
    const err = await outboundGet(`http://127.0.0.2:${outsidePort}/trickle`, base(undefined, { maxBytes: 4, timeoutMs: 2_000 })).catch(
      (e: Error) => e,
    );
    expect((err as Error).message).toBe('document larger than 4 bytes');
  });

  it('a name that does not resolve fails, naming it', async () => {
    const none: Resolver = async () => [];
    const failing: Resolver = async () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
    await expect(outboundGet('http://gone.example/', base(undefined, { resolve: none }))).rejects.toThrow('gone.example does not resolve');
    await expect(outboundGet('http://gone.example/', base(undefined, { resolve: failing }))).rejects.toThrow(
      'gone.example does not resolve: ENOTFOUND',
    );
  });
});

describe('outboundPolicy', () => {
  it('reads host names, addresses and blocks, and nothing else', () => {
    const p = outboundPolicy(['Mirror.Internal.', '10.1.0.0/16', '[fd00::]/8', ' 192.168.1.5 ', '']);
    expect([...p.hosts]).toEqual(['mirror.internal']);
    expect(p.nets.map((n) => n.prefix)).toEqual([16, 8, 32]);
    for (const bad of ['http://x', '10.0.0.0/40', 'a b', '*.example.com', 'host/path']) expect(() => outboundPolicy([bad]), bad).toThrow();
  });
});

describe('HTTPS', () => {
  it('checks the certificate against the URL’s host name, sent as SNI, while connecting to the checked address', () => {
    const dir = path.join(import.meta.dirname, 'tls');
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(dir, 'fetch-child.ts')], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const results = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(results['meta.example'].status).toBe(200);
    expect(results['meta.example'].body).toEqual({ sni: 'meta.example', host: expect.stringMatching(/^meta\.example:\d+$/) });
    // The same server under a name its certificate does not carry: Node's own check refuses it.
    expect(results['other.example'].error).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
  });
});
