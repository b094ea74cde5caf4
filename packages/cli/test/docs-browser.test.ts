import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';

// The interactive docs in a real browser: Debian's chromium (installed by .ci/run), driven by playwright-core,
// against the whole service. Nothing may come from the network but the service itself.

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
  console.warn(`\n!!! SKIPPING the interactive docs browser test: ${CHROMIUM} is missing (apt-get install -y chromium) !!!\n`);
}

describe.skipIf(!haveChromium)('interactive docs in headless Chromium', () => {
  let service: TestGateway;
  let browser: Browser;
  let key: string;
  let origin: string;

  beforeAll(async () => {
    service = await startTestGateway();
    key = await service.createKey('mainnet');
    origin = `http://127.0.0.1:${service.ports.mainnet}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });

  /** Opens a docs page and records every request that left for somewhere other than the service. */
  async function openDocs(version: 'v2' | 'v3'): Promise<{ page: Page; foreign: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) return route.continue();
      foreign.push(url);
      return route.abort();
    });
    await page.goto(`${origin}/api/${version}/`);
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    return { page, foreign };
  }

  /** Enters the key in the Authorize dialog (the X-API-Key scheme). */
  async function authorize(page: Page): Promise<void> {
    await page.locator('.auth-wrapper .authorize').click();
    const header = page.locator('.auth-container').filter({ hasText: 'X-API-Key' });
    await header.locator('input').fill(key);
    await header.locator('button.authorize').click();
    await header.locator('.btn-done').click();
  }

  /** Expands an operation, fills its parameters, presses Execute and returns the live response shown. */
  async function tryIt(
    page: Page,
    path: string,
    params: Record<string, string>,
  ): Promise<{ status: string; body: string; url: string; curl: string }> {
    const operation = page
      .locator('.opblock')
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
      .first();
    await operation.locator('.opblock-summary-control').click();
    await operation.locator('.try-out__btn').click();
    // Try-it-out prefills optional parameters with the spec's examples (mainnet figures); send only ours.
    for (const row of await operation.locator('tr[data-param-name]').all()) {
      const name = (await row.getAttribute('data-param-name'))!;
      const input = row.locator('input[type=text], input:not([type])');
      if ((await input.count()) > 0) await input.first().fill(params[name] ?? '');
    }
    await operation.locator('.execute').click();
    const response = operation.locator('.live-responses-table .response');
    await response.first().waitFor({ timeout: 30_000 });
    const shown = await operation.locator('.responses-inner').first().innerText();
    if (!(await operation.locator('.live-responses-table .microlight').count())) throw new Error(`no response body shown:\n${shown}`);
    return {
      status: (await response.locator('.response-col_status').first().innerText()).trim(),
      body: await operation.locator('.live-responses-table .microlight').first().innerText(),
      url: await operation.locator('.request-url pre').first().innerText(),
      curl: await operation.locator('.curl-command').first().innerText(),
    };
  }

  it('v2: loads offline, lists every operation, and a try-it with an API key returns the live chain', async () => {
    const { page, foreign } = await openDocs('v2');
    const paths = await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths).toContain('/getMasterchainInfo');
    expect(paths).toContain('/jsonRPC');
    expect(new Set(paths).size).toBe(37);
    await authorize(page);
    const result = await tryIt(page, '/getAddressBalance', { address: service.gateway.devnets.mainnet!.faucet.address.toString() });
    expect(result.status).toBe('200');
    expect(result.url).toBe(`${origin}/api/v2/getAddressBalance?address=${service.gateway.devnets.mainnet!.faucet.address.toString()}`);
    expect(JSON.parse(result.body)).toMatchObject({ ok: true, result: '1000000000000000000' });
    expect(result.curl).toContain(`X-API-Key: ${key}`);
    expect(foreign).toEqual([]);
    await page.context().close();
  });

  it('v3: loads offline, lists the operations, and a try-it with an API key answers from the devnet', async () => {
    const { page, foreign } = await openDocs('v3');
    const paths = await page.locator('.opblock-summary-path').evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths).toContain('/walletInformation');
    expect(new Set(paths).size).toBeGreaterThanOrEqual(40);
    await authorize(page);
    const faucet = service.gateway.devnets.mainnet!.faucet.address.toString();
    const result = await tryIt(page, '/walletInformation', { address: faucet });
    expect(result.status).toBe('200');
    const body = JSON.parse(result.body) as { balance: string; status: string; wallet_type: string };
    expect(body.status).toBe('active');
    expect(body.wallet_type).toBe('wallet v4 r2');
    expect(BigInt(body.balance)).toBeGreaterThan(0n);
    expect(result.curl).toContain(`X-API-Key: ${key}`);
    expect(foreign).toEqual([]);
    await page.context().close();
  });
});
