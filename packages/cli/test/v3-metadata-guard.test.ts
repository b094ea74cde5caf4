/**
 * Token metadata URIs are anyone's to write on chain. Over real HTTP against the composed service with the metadata
 * fetcher on: NFT collections deployed on the devnet point their content at an "internal service" (a server on
 * 127.0.0.1 that counts requests) directly, through IPv4-mapped, decimal and hex forms, by the name `localhost`,
 * through a redirect from an allowed server, and at the cloud metadata address. None is fetched: the internal
 * service sees no request, `/api/v3/metadata` says `is_indexed: false`, and `/metrics` counts the refusals. A
 * collection on the allowed server (127.0.0.2, opened by TONGATE_OUTBOUND_ALLOW for the test) is fetched, which
 * shows the fetcher ran.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, internal, toNano, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, tokens, walletTransferBoc } from '@tongate/devnet';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 180_000 });

let internalServer: Server;
let publicServer: Server;
let internalHits = 0;
let internalPort = 0;
let publicBase = '';

beforeAll(async () => {
  internalServer = createServer((_req, res) => (internalHits++, res.end(JSON.stringify({ name: 'internal secret', symbol: 'LEAK' }))));
  publicServer = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const to = url.searchParams.get('to');
    if (to) return void (res.writeHead(302, { location: to }), res.end());
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ name: `Allowed ${url.pathname}`, description: 'served by the allowed stand-in' }));
  });
  await new Promise<void>((resolve) => internalServer.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => publicServer.listen(0, '127.0.0.2', resolve));
  internalPort = (internalServer.address() as AddressInfo).port;
  publicBase = `http://127.0.0.2:${(publicServer.address() as AddressInfo).port}`;
});

afterAll(() => {
  internalServer?.close();
  publicServer?.close();
});

const suite = useKeyedGateway({
  devnetBlockIntervalMs: 0,
  metadataFetch: true,
  metadataSchemes: ['http'],
  metadataTimeoutMs: 1_000,
  outboundAllow: ['127.0.0.2/32'],
});

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

describe.each(['mainnet', 'testnet'] as const)('metadata fetches on %s', (network) => {
  const api = v3Requests(suite, network);
  const hostile = () => {
    const inside = `127.0.0.1:${internalPort}`;
    return {
      direct: `http://${inside}/${network}/direct.json`,
      mapped: `http://[::ffff:127.0.0.1]:${internalPort}/${network}/mapped.json`,
      decimal: `http://2130706433:${internalPort}/${network}/decimal.json`,
      hex: `http://0x7f000001:${internalPort}/${network}/hex.json`,
      name: `http://localhost:${internalPort}/${network}/name.json`,
      redirect: `${publicBase}/r?to=${encodeURIComponent(`http://${inside}/${network}/redirected.json`)}`,
      cloud: `http://169.254.169.254/latest/meta-data/${network}`,
    };
  };
  const collections = new Map<string, Address>();
  let allowed: Address;

  beforeAll(async () => {
    const devnet = suite.service.gateway.devnets[network]!;
    const indexer = suite.service.gateway.indexers[network]!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const deploys = Object.entries({ ...hostile(), allowed: `${publicBase}/${network}/collection.json` }).map(([label, uri]) => {
      const c = tokens.nftCollectionInit(wallet.address, uri, `${uri}#item-`);
      if (label === 'allowed') allowed = c.address;
      else collections.set(label, c.address);
      return internal({
        to: c.address,
        value: toNano('0.2'),
        bounce: false,
        init: c.init,
        body: tokens.nftMintBody({ index: 0n, owner: wallet.address, itemValue: toNano('0.05'), contentSuffix: '0' }),
      });
    });
    let last = 0;
    for (let i = 0; i < deploys.length; i += 4) {
      await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, deploys.slice(i, i + 4)));
      last = (await devnet.settle()).seqno;
    }
    await indexer.waitFor(last, 90_000);
  });

  it('fetches the allowed collection and refuses every internal one without contacting it', async () => {
    const addresses = [allowed, ...collections.values()].map(raw);
    let body: Record<string, any> = {};
    for (let i = 0; i < 60; i++) {
      const r = await api.get('metadata', new URLSearchParams(addresses.map((a): [string, string] => ['address', a])).toString());
      expect(r.status).toBe(200);
      body = r.body;
      if (body[raw(allowed)]?.is_indexed) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(body[raw(allowed)]).toMatchObject({
      is_indexed: true,
      token_info: [{ type: 'nft_collections', valid: true, name: `Allowed /${network}/collection.json` }],
    });
    // The refused ones were looked at in the same rounds: wait until the fetcher has counted every one.
    const metrics = async () => (await (await fetch(`http://127.0.0.1:${suite.service.ports[network]}/metrics`)).text()).split('\n');
    const refusedCount = async () =>
      Number(
        (await metrics())
          .find((l) => l.startsWith(`tongate_metadata_fetches{network="${network}",outcome="refused"}`))
          ?.split(' ')
          .at(-1) ?? 0,
      );
    for (let i = 0; i < 60 && (await refusedCount()) < collections.size * 2; i++) await new Promise((resolve) => setTimeout(resolve, 500));
    // Each collection and its item.
    expect(await refusedCount()).toBeGreaterThanOrEqual(collections.size * 2);
    for (const [label, address] of collections) {
      expect(body[raw(address)], label).toEqual({ is_indexed: false, token_info: [{ type: 'nft_collections', valid: true }] });
    }
    expect(internalHits).toBe(0);
  });
});
