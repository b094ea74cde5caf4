import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface Metrics {
  registry: Registry;
  /** tongate_requests_total{operation,status,network} += 1. */
  countRequest(operation: string, status: number, network: string): void;
  /** tongate_request_duration_seconds{operation,network}: one observation. */
  observeLatency(operation: string, network: string, seconds: number): void;
  /** A gauge read when /metrics is scraped (e.g. the indexer's lag per network). */
  addGauge(name: string, help: string, read: () => { labels: Record<string, string>; value: number }[]): void;
}

/** Label sets seen so far are few (operations × statuses × networks); past this many, new ones are not recorded. */
const MAX_SERIES = 5_000;

type Labels = Record<string, string>;
type MetricValue = { labels: Labels; value: number; metricName?: string };

/**
 * The request counter and latency histogram are updated on every reply, so they are kept as plain numbers per label
 * set and handed to the prom-client registry in its exposition shape when /metrics is scraped. prom-client's own
 * Counter and Histogram hash and validate the label object on every update, which cost about 3% of a small request.
 */
class RequestCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(id: string, labels: () => Labels): void {
    const entry = this.series.get(id);
    if (entry) entry.value++;
    else if (this.series.size < MAX_SERIES) this.series.set(id, { labels: labels(), value: 1 });
  }

  async get() {
    const values: MetricValue[] = [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

class LatencyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, { labels: Labels; counts: Float64Array; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly upperBounds: readonly number[],
  ) {}

  observe(id: string, labels: () => Labels, value: number): void {
    let entry = this.series.get(id);
    if (!entry) {
      if (this.series.size >= MAX_SERIES) return;
      entry = { labels: labels(), counts: new Float64Array(this.upperBounds.length), sum: 0, count: 0 };
      this.series.set(id, entry);
    }
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        entry.counts[i]!++;
        break;
      }
    }
    entry.sum += value;
    entry.count++;
  }

  /** Cumulative buckets (`le`), +Inf, sum and count per label set: the Prometheus histogram exposition. */
  async get() {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += s.counts[i]!;
        values.push({ labels: { ...s.labels, le: String(bound) }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

/** A registry per app so that several apps in one process (tests, bench) do not collide. */
export function createMetrics(withDefaults = true): Metrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const requests = new RequestCounter('tongate_requests_total', 'Requests answered, by operation, HTTP status and network');
  const latency = new LatencyHistogram(
    'tongate_request_duration_seconds',
    'Time from arrival to the last byte of the reply',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  );
  // The registry reads metrics through get() (and reset()); these two provide the shapes its own metrics return.
  registry.registerMetric(requests as never);
  registry.registerMetric(latency as never);
  return {
    registry,
    countRequest(operation, status, network) {
      requests.inc(`${operation}\u0000${status}\u0000${network}`, () => ({ operation, status: String(status), network }));
    },
    observeLatency(operation, network, seconds) {
      latency.observe(`${operation}\u0000${network}`, () => ({ operation, network }), seconds);
    },
    addGauge(name, help, read) {
      const gauge = {
        name,
        help,
        type: 'gauge',
        aggregator: 'sum',
        get: async () => ({ name, help, type: 'gauge', aggregator: 'sum', values: read() }),
        reset() {},
      };
      registry.registerMetric(gauge as never);
    },
  };
}

/** tongate_degraded{component}: 1 while a part of the service runs degraded, read from the sources at scrape time. */
export function registerDegradedGauge(metrics: Metrics, sources: readonly { name: string; health(): { degraded: boolean } }[]): void {
  const name = 'tongate_degraded';
  if (metrics.registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help: 'Whether a part of the service runs degraded (1) or normally (0)',
    labelNames: ['component'],
    registers: [metrics.registry],
    collect() {
      for (const source of sources) this.set({ component: source.name }, source.health().degraded ? 1 : 0);
    },
  });
}
