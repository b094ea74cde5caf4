/**
 * Sequential latency client of the benches, run as a worker thread (a V8 isolate and heap of its own): it sends
 * `urls` one request at a time and posts back each request's milliseconds, the body read whole as a client reads it.
 *
 * Why a thread of its own: a reply of a few hundred kilobytes lands in an external buffer, and large external
 * buffers bring full garbage collections, which cost in proportion to the heap. In the bench's main thread (the
 * devnets' corpus, the gateway's modules) those collections took milliseconds each and made most of the measured
 * tail; here the heap holds the client alone.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { urls, skip } = workerData;
const times = [];
for (let i = 0; i < urls.length; i++) {
  const started = performance.now();
  const res = await fetch(urls[i]);
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${urls[i]}: HTTP ${res.status}`);
  if (i >= skip) times.push(performance.now() - started);
}
parentPort.postMessage(times);
