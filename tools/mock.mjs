#!/usr/bin/env node
// Offline mock of both APIs: Prism serves generated/bundles/{v2,v3}.json, and a small gateway in front of them
// answers under /api/v2 and /api/v3 on one host, like tongate itself (so @tongate/client can point at it).
//
//   node tools/mock.mjs [--host 127.0.0.1] [--port 4000] [--v2-port 4010] [--v3-port 4011] [--dynamic]
//   env: MOCK_HOST, MOCK_PORT, MOCK_V2_PORT, MOCK_V3_PORT. Port 0 picks a free port.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(import.meta.dirname, '..');
const PRISM = path.join(repoRoot, 'node_modules/.bin/prism');
// Generous: under `npm test` Prism starts at nice 10 beside the end-to-end tests on a 2-core machine.
const STARTUP_TIMEOUT_MS = 120_000;

async function freePort(host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `prism mock` and resolves once it listens. */
function startPrism({ bundle, host, port, dynamic }) {
  const args = ['mock', '-h', host, '-p', String(port), ...(dynamic ? ['-d'] : []), bundle];
  const child = spawn(PRISM, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`prism did not start within ${STARTUP_TIMEOUT_MS} ms for ${bundle}:\n${log}`));
    }, STARTUP_TIMEOUT_MS);
    const onData = (chunk) => {
      log += chunk;
      if (log.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve({ child, url: `http://${host}:${port}` });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited (${code}) for ${bundle}:\n${log}`));
    });
  });
}

/** Forwards /api/v2/* and /api/v3/* to the matching Prism instance with the prefix removed. */
function startGateway({ host, port, upstreams }) {
  const server = http.createServer((req, res) => {
    const match = /^\/api\/(v2|v3)(\/.*)?$/.exec(req.url ?? '');
    const upstream = match && upstreams[match[1]];
    if (!upstream) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `no mock for ${req.url}: use /api/v2/... or /api/v3/...` }));
      return;
    }
    const target = new URL(match[2] ?? '/', upstream);
    const proxied = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    proxied.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `mock upstream failed: ${err.message}` }));
    });
    req.pipe(proxied);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}` }));
  });
}

/**
 * Starts Prism for v2 and v3 plus the gateway. Resolves to the URLs and a stop() that ends all three.
 * @param {{ host?: string, port?: number, v2Port?: number, v3Port?: number, dynamic?: boolean, bundlesDir?: string }} options
 */
export async function startMock(options = {}) {
  const host = options.host ?? '127.0.0.1';
  const bundlesDir = options.bundlesDir ?? path.join(repoRoot, 'generated/bundles');
  const v2Port = options.v2Port || (await freePort(host));
  const v3Port = options.v3Port || (await freePort(host));
  const started = await Promise.allSettled([
    startPrism({ bundle: path.join(bundlesDir, 'v2.json'), host, port: v2Port, dynamic: options.dynamic }),
    startPrism({ bundle: path.join(bundlesDir, 'v3.json'), host, port: v3Port, dynamic: options.dynamic }),
  ]);
  const children = started.filter((s) => s.status === 'fulfilled').map((s) => s.value.child);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    for (const child of children) child.kill('SIGTERM');
    throw failed.reason;
  }
  const [v2, v3] = started.map((s) => s.value);
  let gateway;
  try {
    gateway = await startGateway({ host, port: options.port ?? 0, upstreams: { v2: v2.url, v3: v3.url } });
  } catch (err) {
    for (const child of children) child.kill('SIGTERM');
    throw err;
  }
  const stop = async () => {
    const exits = children.map((child) =>
      child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve)),
    );
    for (const child of children) child.kill('SIGTERM');
    gateway.server.closeAllConnections();
    await Promise.all([new Promise((resolve) => gateway.server.close(() => resolve())), ...exits]);
  };
  return { url: gateway.url, v2Url: v2.url, v3Url: v3.url, stop };
}

async function main() {
  const env = process.env;
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: env.MOCK_HOST ?? '127.0.0.1' },
      port: { type: 'string', default: env.MOCK_PORT ?? '4000' },
      'v2-port': { type: 'string', default: env.MOCK_V2_PORT ?? '4010' },
      'v3-port': { type: 'string', default: env.MOCK_V3_PORT ?? '4011' },
      dynamic: { type: 'boolean', default: false },
    },
  });
  const mock = await startMock({
    host: values.host,
    port: Number(values.port),
    v2Port: Number(values['v2-port']),
    v3Port: Number(values['v3-port']),
    dynamic: values.dynamic,
  });
  console.log(`mock v2 (prism):   ${mock.v2Url}`);
  console.log(`mock v3 (prism):   ${mock.v3Url}`);
  console.log(`mock gateway:      ${mock.url}/api/v2  ${mock.url}/api/v3`);
  const shutdown = () => {
    mock.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
