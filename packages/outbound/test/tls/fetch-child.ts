/**
 * Runs in a child process started with NODE_EXTRA_CA_CERTS=tls/cert.pem (a self-signed certificate for
 * meta.example only), so that the certificate check is Node's own: fetches over HTTPS from a server on 127.0.0.2
 * by two names that both resolve there, and prints what each gave.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { outboundGet, outboundPolicy } from '../../src/index.js';

const dir = import.meta.dirname;
const server = createServer({ key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) }, (req, res) =>
  res.end(JSON.stringify({ sni: (req.socket as unknown as { servername?: string }).servername ?? null, host: req.headers.host })),
);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
const port = (server.address() as AddressInfo).port;
const options = {
  policy: outboundPolicy(['127.0.0.2/32']),
  schemes: ['https'],
  timeoutMs: 3_000,
  maxBytes: 4096,
  resolve: async () => [{ address: '127.0.0.2', family: 4 }],
};
const results: Record<string, unknown> = {};
for (const name of ['meta.example', 'other.example']) {
  try {
    const res = await outboundGet(`https://${name}:${port}/doc.json`, options);
    results[name] = { status: res.status, body: JSON.parse(res.body.toString()) };
  } catch (e) {
    results[name] = { error: (e as Error).message };
  }
}
server.close();
console.log(JSON.stringify(results));
