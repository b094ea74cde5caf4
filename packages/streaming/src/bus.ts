import { Redis } from 'ioredis';
import type { Network, StreamBatch } from './events.js';

/**
 * How event sources (the indexer's block commits, the pending-trace tracker) reach every API process's hub. Sources
 * only publish; hubs only listen. In memory for one process; Redis pub/sub for many, one channel per network.
 */
export interface StreamBus {
  publish(batch: StreamBatch): Promise<void>;
  /** Every batch published on the bus, this process's included. */
  listen(onBatch: (batch: StreamBatch) => void): void;
  close(): Promise<void>;
}

export class MemoryBus implements StreamBus {
  private readonly listeners = new Set<(batch: StreamBatch) => void>();

  async publish(batch: StreamBatch): Promise<void> {
    for (const l of this.listeners) l(batch);
  }

  listen(onBatch: (batch: StreamBatch) => void): void {
    this.listeners.add(onBatch);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}

const NETWORKS: Network[] = ['mainnet', 'testnet'];

export interface BusLogger {
  warn(obj: object, msg?: string): void;
}

/** Channels `<prefix>:<network>`: the channel names the network, so a batch can never reach the other one's hub. */
export class RedisBus implements StreamBus {
  private readonly pub: Redis;
  private sub: Redis | null = null;
  private subscribed: Promise<boolean> = Promise.resolve(true);
  private readonly listeners = new Set<(batch: StreamBatch) => void>();

  constructor(
    private readonly redisUrl: string,
    private readonly prefix = 'tongate:stream',
    private readonly logger?: BusLogger,
  ) {
    this.pub = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
    this.pub.on('error', () => {});
  }

  async publish(batch: StreamBatch): Promise<void> {
    await this.pub.publish(`${this.prefix}:${batch.network}`, JSON.stringify(batch));
  }

  listen(onBatch: (batch: StreamBatch) => void): void {
    this.listeners.add(onBatch);
    if (this.sub) return;
    const sub = (this.sub = new Redis(this.redisUrl, { maxRetriesPerRequest: null }));
    sub.on('error', () => {});
    this.subscribed = sub.subscribe(...NETWORKS.map((n) => `${this.prefix}:${n}`)).then(
      () => true,
      (err) => (this.logger?.warn({ err }, 'stream bus: subscribe failed'), false),
    );
    sub.on('message', (channel: string, text: string) => {
      const network = channel.slice(this.prefix.length + 1) as Network;
      if (!NETWORKS.includes(network)) return;
      let batch: StreamBatch;
      try {
        batch = JSON.parse(text) as StreamBatch;
      } catch {
        return;
      }
      if (batch.network !== network) return;
      for (const l of this.listeners) l(batch);
    });
  }

  /** Resolves once the listening connection is subscribed (a process's first events are not missed). */
  ready(): Promise<boolean> {
    return this.subscribed;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.pub.disconnect();
    this.sub?.disconnect();
  }
}
