import type { Registry } from 'prom-client';
import type { Network } from './config.js';

/** One upstream server of a chain backend (a liteserver), as /metrics and /healthcheck show it. */
export interface UpstreamHealth {
  name: string;
  status: string;
  healthy: boolean;
  headSeqno: number;
  latencyMs: number;
  inFlight: number;
  errors: number;
  timeouts: number;
}

/** A chain backend that has upstream servers reports them here (the devnet has none and reports nothing). */
export type BackendHealth = Partial<Record<Network, () => UpstreamHealth[]>>;

/** One health source per network with upstream servers: degraded while none of them is healthy. */
export function backendHealthSources(health: BackendHealth): { name: string; health(): { degraded: boolean; detail?: string } }[] {
  return (Object.entries(health) as [Network, () => UpstreamHealth[]][]).map(([network, read]) => ({
    name: `liteservers_${network}`,
    health() {
      const servers = read();
      const healthy = servers.filter((s) => s.healthy).length;
      return healthy >= 1
        ? { degraded: false }
        : { degraded: true, detail: `no healthy liteserver (${healthy} of ${servers.length}): ${network} chain requests answer 503` };
    },
  }));
}

/** Per-server gauges, read when /metrics is scraped. */
export function registerBackendMetrics(registry: Registry, health: BackendHealth): void {
  const gauge = (name: string, help: string, value: (s: UpstreamHealth) => number, type: 'gauge' | 'counter' = 'gauge') => ({
    name,
    help,
    type,
    aggregator: 'sum',
    async get() {
      const values: { labels: Record<string, string>; value: number }[] = [];
      for (const [network, read] of Object.entries(health) as [Network, () => UpstreamHealth[]][]) {
        for (const s of read()) values.push({ labels: { network, server: s.name }, value: value(s) });
      }
      return { name, help, type, aggregator: 'sum', values };
    },
    reset() {},
  });
  const metrics = [
    gauge('tongate_liteserver_up', 'Liteserver healthy (connected, zero state right, not lagging): 1, else 0', (s) => (s.healthy ? 1 : 0)),
    gauge('tongate_liteserver_head_seqno', 'Last masterchain seqno the liteserver reported', (s) => s.headSeqno),
    gauge('tongate_liteserver_latency_ms', 'Smoothed query latency of the liteserver, ms', (s) => s.latencyMs),
    gauge('tongate_liteserver_in_flight', 'Queries waiting for the liteserver', (s) => s.inFlight),
    gauge('tongate_liteserver_errors_total', 'Failed queries and connection failures of the liteserver', (s) => s.errors, 'counter'),
    gauge('tongate_liteserver_timeouts_total', 'Queries the liteserver did not answer in time', (s) => s.timeouts, 'counter'),
  ];
  for (const m of metrics) registry.registerMetric(m as never);
}
