import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'operation' | 'status' | 'network'>;
  latency: Histogram<'operation' | 'network'>;
  /** requests.inc for one reply, through a cached labelled child (no per-request label hashing). */
  countRequest(operation: string, status: number, network: string): void;
  /** latency.observe for one reply, through a cached labelled child. */
  observeLatency(operation: string, network: string, seconds: number): void;
}

/** Label sets seen so far are few (operations × statuses × networks); past this many, children are not cached. */
const MAX_CACHED_CHILDREN = 5_000;

/** A registry per app so that several apps in one process (tests, bench) do not collide. */
export function createMetrics(withDefaults = true): Metrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'tongate_requests_total',
    help: 'Requests answered, by operation, HTTP status and network',
    labelNames: ['operation', 'status', 'network'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'tongate_request_duration_seconds',
    help: 'Time from arrival to the last byte of the reply',
    labelNames: ['operation', 'network'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const counters = new Map<string, { inc(): void }>();
  const histograms = new Map<string, { observe(value: number): void }>();
  return {
    registry,
    requests,
    latency,
    countRequest(operation, status, network) {
      const id = `${operation}\u0000${status}\u0000${network}`;
      let child = counters.get(id);
      if (!child) {
        child = requests.labels({ operation, status: String(status), network });
        if (counters.size < MAX_CACHED_CHILDREN) counters.set(id, child);
      }
      child.inc();
    },
    observeLatency(operation, network, seconds) {
      const id = `${operation}\u0000${network}`;
      let child = histograms.get(id);
      if (!child) {
        child = latency.labels({ operation, network });
        if (histograms.size < MAX_CACHED_CHILDREN) histograms.set(id, child);
      }
      child.observe(seconds);
    },
  };
}
