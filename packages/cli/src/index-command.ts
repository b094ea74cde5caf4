import path from 'node:path';
import { createDevnet } from '@tongate/devnet';
import { Indexer } from '@tongate/indexer';
import { ConfigError, createLogger, type Config, type Network } from '@tongate/server';
import { openStore } from '@tongate/store';

export interface RunningIndexer {
  indexer: Indexer;
  close(): Promise<void>;
}

/**
 * `tongate index --network N`: one network's indexer as its own process (production: PostgreSQL, API processes
 * with TONGATE_INDEXER=external stay stateless readers). It owns the network's chain backend and is the only
 * writer of the network's chain tables (advisory lock).
 */
export async function startIndexProcess(config: Config, network: Network): Promise<RunningIndexer> {
  const logger = createLogger(config.logLevel);
  const settings = config[network];
  if (settings.backend !== 'devnet') throw new Error(`${network}: chain backend '${settings.backend}' is not available yet; use devnet`);
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };
  try {
    const store = await openStore({ databaseUrl: config.databaseUrl || undefined, dataDir: config.dataDir });
    cleanups.push(() => store.close());
    await store.migrate();
    const lock = await store.tryLockChainWriter(network);
    if (!lock) throw new ConfigError(`${network}: another process already indexes this database (one indexer per network and DATABASE_URL)`);
    cleanups.push(() => lock.release());
    const chain = await createDevnet({
      network,
      dataDir: path.resolve(config.dataDir, 'devnet'),
      blockIntervalMs: config.devnetBlockIntervalMs,
      logger: { info: (obj, msg) => logger.info(obj, msg) },
    });
    cleanups.push(() => chain.close());
    const indexer = new Indexer({ chain, db: store.chain(network), startSeqno: settings.indexFrom ?? undefined, logger });
    await indexer.start();
    cleanups.push(() => indexer.stop());
    const report = setInterval(() => logger.info({ network, ...indexer.status() }, 'indexer status'), 10_000);
    report.unref();
    cleanups.push(async () => clearInterval(report));
    return { indexer, close };
  } catch (err) {
    await close();
    throw err;
  }
}
