// The subscribers of bench/streaming.ts, in their own thread so that they neither share the server's event loop nor
// count in its heap. Each is a `ws` client; arrival times (performance.timeOrigin + now, comparable across threads)
// are kept per event key and handed over when the main thread asks for a key.
import { parentPort } from 'node:worker_threads';
import WebSocket from 'ws';

const clients = [];
const arrivals = new Map(); // key → times
const waiters = new Map(); // key → { count, resolve }

const now = () => performance.timeOrigin + performance.now();

function note(key) {
  const t = now();
  let list = arrivals.get(key);
  if (!list) arrivals.set(key, (list = []));
  list.push(t);
  const w = waiters.get(key);
  if (w && list.length >= w.count) {
    waiters.delete(key);
    w.resolve(list);
  }
}

function keyOf(m) {
  if (m.type !== 'transactions') return null;
  if (m.finality === 'finalized') return `finalized:${m.transactions[0]?.mc_block_seqno}`;
  if (m.finality === 'pending') return `pending:${m.trace_external_hash_norm}`;
  return null;
}

async function open({ url, count, subscription }) {
  const opened = [];
  for (let i = 0; i < count; i++) {
    opened.push(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        ws.on('error', reject);
        ws.on('open', () => ws.send(JSON.stringify({ operation: 'subscribe', ...subscription })));
        ws.on('message', (data) => {
          const m = JSON.parse(data.toString());
          if (m.status === 'subscribed') return resolve(ws);
          const key = keyOf(m);
          if (key) note(key);
        });
      }),
    );
    // Connections are opened in small groups: the listener's backlog stays short.
    if (i % 50 === 49) await Promise.all(opened.slice(-50));
  }
  clients.push(...(await Promise.all(opened)));
}

parentPort.on('message', async (msg) => {
  try {
    if (msg.cmd === 'open') {
      await open(msg);
      parentPort.postMessage({ id: msg.id, clients: clients.length });
    } else if (msg.cmd === 'collect') {
      const list = arrivals.get(msg.key) ?? [];
      const times =
        list.length >= msg.count
          ? list
          : await new Promise((resolve, reject) => {
              waiters.set(msg.key, { count: msg.count, resolve });
              setTimeout(
                () => reject(new Error(`${msg.key}: ${arrivals.get(msg.key)?.length ?? 0} of ${msg.count} arrivals`)),
                msg.timeoutMs ?? 30_000,
              );
            });
      arrivals.delete(msg.key);
      parentPort.postMessage({ id: msg.id, times });
    } else if (msg.cmd === 'close') {
      for (const ws of clients.splice(0)) ws.terminate();
      parentPort.postMessage({ id: msg.id });
    }
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String(err) });
  }
});
