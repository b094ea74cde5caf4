import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';

// A dApp page in a real browser: a page served from another origin runs @ton/ton's TonClient (unchanged, bundled for
// the browser as a dApp would bundle it) with an API key against the JSON-RPC endpoint, and fetches a v3 list. Both
// need CORS preflights (X-API-Key and X-Ton-Client-Version are not simple headers); those must be answered, and
// must not be charged against the keyless limit of the page's client address.

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) {
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package for this test`);
  console.warn(`\n!!! SKIPPING the CORS browser test: ${CHROMIUM} is missing (apt-get install -y chromium) !!!\n`);
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** @ton/ton for the page, with the Buffer global @ton/core expects (a browser has none). */
async function bundleTonClient(): Promise<string> {
  // @ton/core reads Buffer while its modules load: the global is set by a module imported before @ton/ton.
  const bufferGlobal: Plugin = {
    name: 'buffer-global',
    setup(b) {
      b.onResolve({ filter: /^buffer-global$/ }, () => ({ path: 'buffer-global', namespace: 'shim' }));
      b.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({
        contents: "import { Buffer } from 'buffer'; globalThis.Buffer = Buffer;",
        resolveDir: here,
        loader: 'js',
      }));
    },
  };
  const result = await build({
    stdin: { contents: "import 'buffer-global'; export { TonClient, Address } from '@ton/ton';", resolveDir: here, loader: 'js' },
    plugins: [bufferGlobal],
    bundle: true,
    format: 'iife',
    globalName: 'ton',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** Sum of tongate_requests_total over the lines whose labels match. */
async function requestsCounted(api: string, match: RegExp): Promise<number> {
  const text = await (await fetch(`${api}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('tongate_requests_total{') && match.test(line))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe.skipIf(!haveChromium)('CORS: a page of another origin in headless Chromium', () => {
  let service: TestGateway;
  let browser: Browser;
  let pageServer: http.Server;
  let pageOrigin: string;

  beforeAll(async () => {
    // One keyless request per second: a preflight charged to the page's address would leave none for the page.
    service = await startTestGateway({ keylessRps: 1, keylessBurst: 1 });
    const script = await bundleTonClient();
    pageServer = http.createServer((req, res) => {
      if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dApp</title><script src="/app.js"></script>');
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    // localhost vs 127.0.0.1 and another port: another origin than the API's.
    pageOrigin = `http://localhost:${(pageServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    await service?.close();
  });

  it.each(['mainnet', 'testnet'] as const)(
    '%s: TonClient with an API key over JSON-RPC and a v3 list both answer; the preflights cost nothing',
    async (network) => {
      const api = `http://127.0.0.1:${service.ports[network]}`;
      const key = await service.createKey(network, 50);
      const faucet = service.gateway.devnets[network]!.faucet.address.toString({ testOnly: network === 'testnet' });
      const preflightsBefore = await requestsCounted(api, /status="204"/);
      // The keyless allowance of this client address is per second and shared by both networks: start with it whole.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const context = await browser.newContext();
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(pageOrigin);
      await page
        .waitForFunction(() => (globalThis as unknown as { ton?: unknown }).ton !== undefined, undefined, { timeout: 10_000 })
        .catch(() => {
          throw new Error(`the bundle did not load: ${pageErrors.join('; ')}`);
        });
      const outcome = await page.evaluate(
        async ({ api, key, faucet }) => {
          const { TonClient, Address } = (globalThis as unknown as { ton: typeof import('@ton/ton') }).ton;
          const client = new TonClient({ endpoint: `${api}/api/v2/jsonRPC`, apiKey: key });
          const info = await client.getMasterchainInfo();
          const balance = (await client.getBalance(Address.parse(faucet))).toString();
          const state = await client.getContractState(Address.parse(faucet));
          const list = await fetch(`${api}/api/v3/blocks?workchain=-1&limit=3`, { headers: { 'X-API-Key': key, 'X-Timeout': '3000' } });
          const listBody = (await list.json()) as { blocks: unknown[] };
          // A simple GET (no custom header: no preflight), keyless, right after the preflights above.
          const keyless = await fetch(`${api}/api/v3/masterchainInfo`);
          return {
            seqno: info.latestSeqno,
            balance,
            state: state.state,
            listStatus: list.status,
            listed: listBody.blocks.length,
            version: list.headers.get('X-API-Version'),
            requestId: list.headers.get('X-Request-Id'),
            keylessStatus: keyless.status,
          };
        },
        { api, key, faucet },
      );
      await context.close();
      expect(outcome.seqno).toBeGreaterThan(0);
      expect(BigInt(outcome.balance)).toBeGreaterThan(0n);
      expect(outcome.state).toBe('active');
      expect(outcome.listStatus).toBe(200);
      expect(outcome.listed).toBeGreaterThan(0);
      // Exposed reply headers are readable by the page.
      expect(outcome.version).toMatch(/^3\./);
      expect(outcome.requestId).toBeTruthy();
      expect(outcome.keylessStatus).toBe(200);
      // The browser did preflight (JSON-RPC POST and the v3 GET at least), and each was answered 204.
      expect((await requestsCounted(api, /status="204"/)) - preflightsBefore).toBeGreaterThanOrEqual(2);
    },
  );
});
