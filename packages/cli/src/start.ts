import { Address } from '@ton/core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChainSource } from '@tongate/chain';
import { createDevnet, devnetElectionTiming, installFastSha256, type Devnet } from '@tongate/devnet';
import { LiteserverChain, parseGlobalConfig, type ProofPolicy } from '@tongate/liteserver';
import type { MessageSubmitter } from '@tongate/domain';
import { createV2Handlers } from '@tongate/handlers-v2';
import {
  blockPublisher,
  createV3Handlers,
  MemoryPendingStore,
  pendingStreamItem,
  PendingTraces,
  RedisPendingStore,
} from '@tongate/handlers-v3';
import { MemoryBus, RedisBus, RedisConnectionRegistry, StreamHub, StreamingEndpoints, type StreamBus } from '@tongate/streaming';
import { Indexer, type MetadataFetcher } from '@tongate/indexer';
import { processLogger } from './log-output.js';
import { startMetadataFetcher } from './metadata-fetcher.js';
import {
  createAdminApp,
  createApp,
  createMemoryLimiter,
  createMetrics,
  createRedisLimiter,
  FailoverRedisLimiter,
  ConfigError,
  listen,
  newAdminToken,
  NETWORKS,
  removeAdminFile,
  writeAdminFile,
  type BackendHealth,
  type Config,
  type Logger,
  type Network,
  type RunningServer,
} from '@tongate/server';
import { KeyLookup } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';

export interface Gateway {
  servers: { network: Network | 'all'; port: number }[];
  devnets: Partial<Record<Network, Devnet>>;
  /** The embedded indexers (config.indexer = embedded). */
  indexers: Partial<Record<Network, Indexer>>;
  /** The Streaming API's hub and endpoints (subscriber counts, dropped subscribers). */
  streaming: { hub: StreamHub; endpoints: StreamingEndpoints };
  adminUrl: string;
  close(): Promise<void>;
}

/** A connection failure to PostgreSQL names the setting to fix instead of surfacing as a bare stack trace. */
async function databaseStep<T>(config: Config, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!config.databaseUrl) throw err;
    const e = err as { code?: string; message?: string; errors?: { code?: string; message?: string }[] };
    const cause = e.code ?? e.errors?.[0]?.code ?? '';
    const detail = (e.message || e.errors?.map((x) => x.message).join('; ') || String(err)).trim();
    throw new ConfigError(
      `DATABASE_URL (${redactPassword(config.databaseUrl)}): cannot use PostgreSQL: ${cause ? `${cause} ` : ''}${detail}`,
    );
  }
}

function redactPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** The composition root: config → store → chain backends → handlers → app → listeners. */
export async function startGateway(
  config: Config,
  options: { seed?: boolean; logger?: Logger; /** PostgreSQL schema (tests: one per run). */ schema?: string } = {},
): Promise<Gateway> {
  const logger = options.logger ?? processLogger(config);
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };
  // @ton/core hashes every cell with a pure-JS sha256; node:crypto's is swapped in process-wide here, once, by the
  // composition root (a no-op on a @ton/crypto other than the one it was written for: packages/devnet/src/fast/).
  if (!installFastSha256()) logger.warn('fast sha256 not installed: @ton/crypto is not the version the devnet fast path was written for');
  try {
    const store = await databaseStep(config, () =>
      openIndexStore({
        databaseUrl: config.databaseUrl || undefined,
        dataDir: config.dataDir,
        schema: config.databaseUrl ? (options.schema ?? (config.databaseSchema || undefined)) : undefined,
        readTimeoutMs: config.dbReadTimeoutMs,
      }),
    );
    cleanups.push(() => store.close());
    await databaseStep(config, () => store.migrate());
    const keys = new KeyLookup(store.keys, {
      pollIntervalMs: config.keysPollMs,
      onError: (err) => logger.warn({ err }, 'key version poll failed'),
    });
    await keys.start();
    cleanups.push(async () => keys.stop());
    const limiter = config.redisUrl
      ? createRedisLimiter(config.redisUrl, `${config.redisPrefix}:rl`, {
          onDegraded: (reason) => logger.warn({ reason }, 'Redis unreachable: rate limits fall back to this process until it returns'),
          onRecovered: () => logger.info('Redis reachable again: rate limits are shared again'),
        })
      : createMemoryLimiter();
    // A fresh process waits briefly for Redis so its first requests are counted in the shared limits.
    if (limiter instanceof FailoverRedisLimiter && !(await limiter.waitForRedis()))
      logger.warn('Redis not reachable at start: rate limits are per process until it is');
    cleanups.push(() => limiter.close());

    // Pending traces: in Redis when there is one, so every API process serves what any of them accepted.
    const pendingStore = config.redisUrl
      ? new RedisPendingStore(config.redisUrl, config.pendingMaxEntries, `${config.redisPrefix}:pending`)
      : new MemoryPendingStore(config.pendingMaxEntries);
    cleanups.push(() => pendingStore.close());

    // Streaming API: sources publish on the bus, every process's hub listens (Redis pub/sub with REDIS_URL).
    const bus: StreamBus = config.redisUrl ? new RedisBus(config.redisUrl, config.streamChannel, logger) : new MemoryBus();
    cleanups.push(() => bus.close());
    const hub = new StreamHub({ retainBlocks: config.streamRetainBlocks });
    bus.listen((batch) => hub.publish(batch));
    if (bus instanceof RedisBus && !(await bus.ready())) logger.warn('Redis not reachable at start: streams get no events until it is');
    const streamEndpoints = new StreamingEndpoints({
      hub,
      limits: {
        keyConnections: config.streamKeyConnections,
        keyAddresses: config.streamKeyAddresses,
        keylessConnections: config.streamKeylessConnections,
        keylessAddresses: config.streamKeylessAddresses,
        connectsPerMinute: config.streamConnectsPerMinute,
      },
      keepAliveMs: config.streamKeepAliveMs,
      maxBufferedBytes: config.streamMaxBufferBytes,
      logger,
      // With Redis, a key's streams are counted across every API process.
      registry: config.redisUrl ? new RedisConnectionRegistry(config.redisUrl, `${config.streamChannel}:limits`) : undefined,
    });
    const publish = (network: Network) => (batch: Parameters<StreamBus['publish']>[0]) =>
      bus.publish(batch).catch((err) => logger.warn({ err, network }, 'stream event not published'));

    const devnets: Partial<Record<Network, Devnet>> = {};
    const indexers: Partial<Record<Network, Indexer>> = {};
    const fetchers: Partial<Record<Network, MetadataFetcher>> = {};
    const backendHealth: BackendHealth = {};
    const v2Handlers = {} as Record<Network, ReturnType<typeof createV2Handlers>>;
    const v3Handlers = {} as Record<Network, ReturnType<typeof createV3Handlers>>;
    for (const network of NETWORKS) {
      const settings = config[network];
      let chain: ChainSource;
      if (settings.backend === 'liteserver') {
        const liteserver = await openLiteserverBackend(network, settings.liteserverConfig, logger);
        cleanups.push(() => liteserver.close());
        backendHealth[network] = () => liteserver.health();
        chain = liteserver;
        if (options.seed) logger.warn({ network }, '--seed applies to devnets only; this network reads liteservers');
      } else {
        const devnet = await createDevnet({
          network,
          dataDir: path.resolve(config.dataDir, 'devnet'),
          blockIntervalMs: config.devnetBlockIntervalMs,
          shards: config.devnetShards,
          consensus: config.devnetConsensus,
          electionTiming: devnetElectionTiming(config.devnetElectionCycleS),
          logger: { info: (obj, msg) => logger.info(obj, msg) },
        });
        cleanups.push(() => devnet.close());
        devnets[network] = devnet;
        chain = devnet;
        if (options.seed) {
          const summary = await devnet.seed();
          logger.info({ network, lastBlock: summary.lastBlock.seqno }, 'devnet seeded');
        }
      }
      const index = store.chainReader(network);
      const pending = new PendingTraces({
        chain,
        store: pendingStore,
        index,
        ttlMs: config.pendingTtlSeconds * 1000,
        logger,
        tonDnsCollection: settings.dnsCollection ? Address.parse(settings.dnsCollection) : undefined,
        // Finalized events come from the indexer's blocks; the tracker's own step to finalized is not streamed.
        onChange: (entry) => void (entry.finality !== 'finalized' && publish(network)({ network, items: [pendingStreamItem(entry)] })),
        onInvalidated: (key) => void publish(network)({ network, items: [{ kind: 'invalidated', hashNorm: key }] }),
      });
      pending.start();
      cleanups.push(() => pending.stop());
      const submitMessage: MessageSubmitter = (message) => pending.submit(message);
      v2Handlers[network] = createV2Handlers({ chain, submitMessage });
      v3Handlers[network] = createV3Handlers({ chain, submitMessage, index, indexReadTimeoutMs: store.readTimeoutMs, pending });
      if (config.indexer === 'embedded') {
        const lock = await store.tryLockChainWriter(network);
        if (!lock) throw new Error(`${network}: another process indexes this database; set TONGATE_INDEXER=external to only serve it`);
        cleanups.push(() => lock.release());
        const indexer = new Indexer({
          chain,
          db: store.chain(network),
          startSeqno: settings.indexFrom ?? undefined,
          tonDnsCollection: settings.dnsCollection ? Address.parse(settings.dnsCollection) : undefined,
          logger,
          onCommitted: blockPublisher(index, network, publish(network), logger),
        });
        await indexer.start();
        cleanups.push(() => indexer.stop());
        indexers[network] = indexer;
        const fetcher = startMetadataFetcher(config, network, store.chain(network), logger);
        if (fetcher) {
          cleanups.push(() => fetcher.stop());
          fetchers[network] = fetcher;
        }
      }
    }

    const metrics = createMetrics();
    const lag = (pick: 'lagBlocks' | 'lagSeconds') => () =>
      Object.entries(indexers).flatMap(([network, indexer]) => {
        const value = indexer!.status()[pick];
        return value === null ? [] : [{ labels: { network }, value }];
      });
    metrics.addGauge(
      'tongate_metadata_fetches',
      'Token metadata fetches since start, by outcome: fetched, failed, or refused (a destination the outbound guard does not allow)',
      () =>
        Object.entries(fetchers).flatMap(([network, fetcher]) =>
          Object.entries(fetcher!.status()).map(([outcome, value]) => ({ labels: { network, outcome }, value })),
        ),
    );
    metrics.addGauge(
      'tongate_indexer_lag_blocks',
      'Masterchain blocks between the chain head and the last indexed block',
      lag('lagBlocks'),
    );
    metrics.addGauge(
      'tongate_indexer_lag_seconds',
      'Seconds between the chain head and the last indexed block (gen_utime)',
      lag('lagSeconds'),
    );
    // Where a block's time goes between being sealed and being served (discover, collect, prepare:<derivation>,
    // write:chain, write:<derivation>, commit): running totals, for rates per block, and the last block's.
    const perIndexer =
      <T>(read: (status: ReturnType<Indexer['status']>, network: string) => T[]) =>
      () =>
        Object.entries(indexers).flatMap(([network, indexer]) => read(indexer!.status(), network));
    metrics.addGauge(
      'tongate_indexer_blocks_written',
      'Masterchain blocks the indexer wrote since start',
      perIndexer((s, network) => [{ labels: { network }, value: s.blocks }]),
    );
    metrics.addGauge(
      'tongate_indexer_stage_seconds',
      'Seconds the indexer spent per stage of its blocks since start (divide by tongate_indexer_blocks_written for a per-block mean)',
      perIndexer((s, network) => Object.entries(s.stageSecondsTotal).map(([stage, value]) => ({ labels: { network, stage }, value }))),
    );
    metrics.addGauge(
      'tongate_indexer_last_block_stage_seconds',
      'Seconds per stage of the last masterchain block the indexer wrote',
      perIndexer((s, network) =>
        Object.entries(s.lastBlock?.stagesMs ?? {}).map(([stage, ms]) => ({ labels: { network, stage }, value: ms / 1000 })),
      ),
    );
    const health = () => ({
      indexer: Object.fromEntries(
        Object.entries(indexers).map(([network, indexer]) => {
          const s = indexer!.status();
          return [
            network,
            {
              indexed_seqno: s.indexedSeqno,
              chain_seqno: s.chainSeqno,
              lag_blocks: s.lagBlocks,
              lag_seconds: s.lagSeconds,
              last_error: s.lastError,
            },
          ];
        }),
      ),
    });
    // An indexer that keeps failing (not merely waiting for the next block) degrades the service; an unreachable
    // chain backend is reported by the backend's own health, not once more here.
    const healthSources = Object.entries(indexers).map(([network, indexer]) => ({
      name: `indexer_${network}`,
      health: () => {
        const { lastError, lastErrorIsBackend } = indexer!.status();
        return lastError === null || lastErrorIsBackend ? { degraded: false } : { degraded: true, detail: lastError };
      },
    }));
    metrics.addGauge('tongate_stream_subscribers', 'Streaming API subscribers per network', () =>
      NETWORKS.map((network) => ({ labels: { network }, value: hub.subscriberCount(network) })),
    );
    metrics.addGauge('tongate_stream_dropped_total', 'Streaming API subscribers dropped for not reading since start', () => [
      { labels: {}, value: streamEndpoints.dropped },
    ]);
    const app = createApp({
      config,
      v2Handlers,
      v3Handlers,
      keys,
      limiter,
      logger,
      metrics,
      health,
      healthSources,
      backendHealth,
      streaming: streamEndpoints,
    });
    const ports = [...new Set(NETWORKS.map((n) => config[n].port).filter((p) => p > 0))];
    const servers: Gateway['servers'] = [];
    const running: RunningServer[] = [];
    for (const port of ports) {
      const server = await listen(app, port, config.listenHost, config);
      running.push(server);
      servers.push({ network: NETWORKS.find((n) => config[n].port === port) ?? 'all', port: server.port });
    }
    // Drain API listeners first (in-flight requests finish; streams end at once), then the rest shuts down.
    cleanups.push(async () => {
      streamEndpoints.close();
      await Promise.all(running.map((s) => s.close()));
    });

    const token = newAdminToken();
    const admin = await listen(createAdminApp({ token, keys: store.keys, devnets }), 0, '127.0.0.1');
    const adminUrl = `http://127.0.0.1:${admin.port}`;
    const adminFile = writeAdminFile(config.dataDir, adminUrl, token);
    cleanups.push(async () => {
      removeAdminFile(config.dataDir, adminFile.token);
      await admin.close(1000);
    });
    return { servers, devnets, indexers, streaming: { hub, endpoints: streamEndpoints }, adminUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * The liteserver backend of one network from its global config file. Proof checks are on unless the file says
 * `"tongate": { "proofs": "unsafe" }`, which only a server that cannot prove its answers needs.
 */
export async function openLiteserverBackend(network: Network, file: string, logger: Logger): Promise<LiteserverChain> {
  const name = `TONGATE_${network.toUpperCase()}_LITESERVER_CONFIG`;
  if (!file) throw new ConfigError(`${network}: the liteserver backend needs a global config file (${name})`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${name}: cannot read ${file}: ${(err as Error).message}`);
  }
  const globalConfig = parseGlobalConfig(doc);
  for (const reason of globalConfig.skipped) logger.warn({ network, reason }, 'liteserver skipped');
  const requested = (doc as { tongate?: { proofs?: unknown } }).tongate?.proofs;
  if (requested !== undefined && requested !== 'unsafe' && requested !== 'checking')
    throw new ConfigError(`${file}: tongate.proofs must be unsafe or checking`);
  const proofs: ProofPolicy = (requested as ProofPolicy | undefined) ?? 'checking';
  const chain = new LiteserverChain({
    network,
    config: globalConfig,
    proofs,
    pool: { logger: { info: (o, m) => logger.info(o, m), warn: (o, m) => logger.warn(o, m) } },
  });
  if (!(await chain.ready()))
    logger.warn(
      { network, servers: globalConfig.liteservers.length },
      'no liteserver reachable yet; chain requests answer 503 until one is',
    );
  logger.info({ network, servers: globalConfig.liteservers.length, proofs }, 'liteserver backend');
  return chain;
}
