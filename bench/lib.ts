/** Helpers the benches share: autocannon's typed surface, free ports, the bare express baseline, rounding. */
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';

// autocannon ships no type declarations; this is the part of its API the bench uses.
export interface Histogram {
  average: number;
  stddev: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p99: number;
}
export interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  throughput: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats?: Record<string, { count: number }>;
}
export interface AutocannonOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  workers?: number;
  warmup?: { connections: number; duration: number };
}
export const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startBareExpress(): Promise<{ url: string; server: Server }> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const constant = { ok: true, result: 'pong' };
  app.get('/bare', (_req, res) => {
    res.json(constant);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`, server };
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs a bench's main; once done, a handle left open by a dependency must not keep the process alive. */
export function runBench(main: () => Promise<void>): void {
  const exitSoon = () => setTimeout(() => process.exit(), 5000).unref();
  main().then(exitSoon, (err: unknown) => {
    console.error(err);
    process.exitCode = 1;
    exitSoon();
  });
}

/** Ends the process if the bench still runs after `ms` (whatever hangs), and returns the bench's log function. */
export function benchLog(name: string, ms: number): (message: string) => void {
  const hardStop = setTimeout(() => {
    console.error(`bench/${name}: still running after ${ms / 1000} s, giving up`);
    process.exit(2);
  }, ms);
  hardStop.unref();
  return (message) => console.log(`[${name} bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}
