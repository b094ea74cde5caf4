import { createServer } from 'node:net';

/**
 * Ports for servers a test stops and starts again on the same address. A port from listen(0) is in the kernel's
 * ephemeral range (32768+ on Linux): once released, another test's listen(0) or an outgoing connection may take it
 * and the restart fails with EADDRINUSE. These come from below that range, a slice per vitest worker (16000–19999;
 * the cli package's tests use 20000–31999), so nothing else in the run picks them.
 */
const SLICE = 500;
const BASE = 16_000 + ((Number(process.env.VITEST_POOL_ID ?? process.pid) || 0) % 8) * SLICE;
let next = Math.floor(Math.random() * SLICE);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function privatePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = BASE + (next++ % SLICE);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${BASE}..${BASE + SLICE - 1}`);
}
