import { Address } from '@ton/core';
import path from 'node:path';
import type { ChainSource } from '@tongate/chain';
import { createDevnet, devnetElectionTiming } from '@tongate/devnet';
import { blockPublisher } from '@tongate/handlers-v3';
import { Indexer } from '@tongate/indexer';
import { RedisBus } from '@tongate/streaming';
import { startMetadataFetcher } from './metadata-fetcher.js';
import { ConfigError, type Config, type Network } from '@tongate/server';
import { processLogger } from './log-output.js';
import { openIndexStore } from '@tongate/read-model';
import { openLiteserverBackend } from './start.js';

export interface RunningIndexer {
  indexer: Indexer;
  close(): Promise<void>;
}

/**
 * `tongate index --network N`: one network's indexer as its own process (production: PostgreSQL and liteservers,
 * API processes with TONGATE_INDEXER=external stay stateless readers). It reads the network's configured backend
 * (with the devnet backend it owns that devnet) and is the only writer of the network's chain tables (advisory lock).
 */
export async function startIndexProcess(config: Config, network: Network): Promise<RunningIndexer> {
  const logger = processLogger(config);
  const settings = config[network];
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };
  try {
    const store = await openIndexStore({
      databaseUrl: config.databaseUrl || undefined,
      dataDir: config.dataDir,
      schema: (config.databaseUrl && config.databaseSchema) || undefined,
    });
    cleanups.push(() => store.close());
    await store.migrate();
    const lock = await store.tryLockChainWriter(network);
    if (!lock)
      throw new ConfigError(`${network}: another process already indexes this database (one indexer per network and DATABASE_URL)`);
    cleanups.push(() => lock.release());
    const chain: ChainSource =
      settings.backend === 'liteserver'
        ? await openLiteserverBackend(network, settings.liteserverConfig, logger)
        : await createDevnet({
            network,
            dataDir: path.resolve(config.dataDir, 'devnet'),
            blockIntervalMs: config.devnetBlockIntervalMs,
            shards: config.devnetShards,
            consensus: config.devnetConsensus,
            electionTiming: devnetElectionTiming(config.devnetElectionCycleS),
            logger: { info: (obj, msg) => logger.info(obj, msg) },
          });
    cleanups.push(() => chain.close());
    // The Streaming API's finalized events: each committed block, published to the API processes through Redis.
    let onCommitted: ((seqno: number) => void) | undefined;
    if (config.redisUrl) {
      const bus = new RedisBus(config.redisUrl, config.streamChannel, logger);
      cleanups.push(() => bus.close());
      onCommitted = blockPublisher(store.chain(network), network, (batch) => bus.publish(batch), logger);
    } else logger.warn({ network }, 'no REDIS_URL: the Streaming API of the API processes gets no finalized events from this indexer');
    const indexer = new Indexer({
      chain,
      db: store.chain(network),
      startSeqno: settings.indexFrom ?? undefined,
      tonDnsCollection: settings.dnsCollection ? Address.parse(settings.dnsCollection) : undefined,
      logger,
      onCommitted,
    });
    await indexer.start();
    cleanups.push(() => indexer.stop());
    const fetcher = startMetadataFetcher(config, network, store.chain(network), logger);
    if (fetcher) cleanups.push(() => fetcher.stop());
    const report = setInterval(() => logger.info({ network, ...indexer.status() }, 'indexer status'), 10_000);
    report.unref();
    cleanups.push(async () => clearInterval(report));
    return { indexer, close };
  } catch (err) {
    await close();
    throw err;
  }
}
