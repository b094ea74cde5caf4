import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  requests: Counter<'operation' | 'status' | 'network'>;
  latency: Histogram<'operation' | 'network'>;
}

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
  return { registry, requests, latency };
}
