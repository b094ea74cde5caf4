/**
 * Sequential latency client of the benches, run as a worker thread (a V8 isolate and heap of its own): it sends
 * `urls` one request at a time and posts back each request's milliseconds, the body read whole as a client reads it.
 *
 * Why a thread of its own: a reply of a few hundred kilobytes lands in an external buffer, and large external
 * buffers bring full garbage collections, which cost in proportion to the heap. In the bench's main thread (the
 * devnets' corpus, the gateway's modules) those collections took milliseconds each and made most of the measured
 * tail; here the heap holds the client alone.
 *
 * `client`: 'fetch' (undici, what tonweb and browser-style clients use) or 'http' (node:http with a keep-alive
 * agent, what @ton/ton's TonClient uses through axios, and the leanest client Node has): the two differ by their own
 * costs, which are the client's, not the server's (a static 200 KB reply: p99 4.2–4.5 ms through fetch, 1.4–2.1 ms
 * through node:http).
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { urls, skip, client = 'fetch' } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

async function viaFetch(url) {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

function viaHttp(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          Buffer.concat(chunks);
          resolve(res.statusCode);
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const request = client === 'http' ? viaHttp : viaFetch;
const times = [];
for (let i = 0; i < urls.length; i++) {
  const started = performance.now();
  const status = await request(urls[i]);
  if (status !== 200) throw new Error(`${urls[i]}: HTTP ${status}`);
  if (i >= skip) times.push(performance.now() - started);
}
agent.destroy();
parentPort.postMessage(times);
