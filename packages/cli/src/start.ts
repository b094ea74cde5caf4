import path from 'node:path';
import { createDevnet, installFastSha256, type Devnet } from '@tongate/devnet';
import { createV2Handlers } from '@tongate/handlers-v2';
import { createV3Handlers } from '@tongate/handlers-v3';
import {
  createAdminApp,
  createApp,
  createLogger,
  createMemoryLimiter,
  createRedisLimiter,
  ConfigError,
  listen,
  newAdminToken,
  NETWORKS,
  removeAdminFile,
  writeAdminFile,
  type Config,
  type Logger,
  type Network,
  type RunningServer,
} from '@tongate/server';
import { KeyLookup, openStore } from '@tongate/store';

export interface Gateway {
  servers: { network: Network | 'all'; port: number }[];
  devnets: Partial<Record<Network, Devnet>>;
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
    throw new ConfigError(`DATABASE_URL (${redactPassword(config.databaseUrl)}): cannot use PostgreSQL: ${cause ? `${cause} ` : ''}${detail}`);
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
export async function startGateway(config: Config, options: { seed?: boolean; logger?: Logger } = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err) => logger.error({ err }, 'shutdown step failed'));
  };
  // @ton/core hashes every cell with a pure-JS sha256; node:crypto's is swapped in process-wide here, once, by the
  // composition root (a no-op on a @ton/crypto other than the one it was written for: packages/devnet/src/fast/).
  if (!installFastSha256()) logger.warn('fast sha256 not installed: @ton/crypto is not the version the devnet fast path was written for');
  try {
    const store = await databaseStep(config, () => openStore({ databaseUrl: config.databaseUrl || undefined, dataDir: config.dataDir }));
    cleanups.push(() => store.close());
    await databaseStep(config, () => store.migrate());
    const keys = new KeyLookup(store.keys, { pollIntervalMs: config.keysPollMs, onError: (err) => logger.warn({ err }, 'key version poll failed') });
    await keys.start();
    cleanups.push(async () => keys.stop());
    const limiter = config.redisUrl
      ? createRedisLimiter(config.redisUrl, undefined, {
          onDegraded: (reason) => logger.warn({ reason }, 'Redis unreachable: rate limits fall back to this process until it returns'),
          onRecovered: () => logger.info('Redis reachable again: rate limits are shared again'),
        })
      : createMemoryLimiter();
    cleanups.push(() => limiter.close());

    const devnets: Partial<Record<Network, Devnet>> = {};
    const v2Handlers = {} as Record<Network, ReturnType<typeof createV2Handlers>>;
    const v3Handlers = {} as Record<Network, ReturnType<typeof createV3Handlers>>;
    for (const network of NETWORKS) {
      const settings = config[network];
      if (settings.backend !== 'devnet') {
        throw new Error(`${network}: chain backend '${settings.backend}' is not available yet; use devnet`);
      }
      const devnet = await createDevnet({
        network,
        dataDir: path.resolve(config.dataDir, 'devnet'),
        blockIntervalMs: config.devnetBlockIntervalMs,
        logger: { info: (obj, msg) => logger.info(obj, msg) },
      });
      cleanups.push(() => devnet.close());
      devnets[network] = devnet;
      v2Handlers[network] = createV2Handlers({ chain: devnet });
      v3Handlers[network] = createV3Handlers({ chain: devnet, v2: v2Handlers[network] });
      if (options.seed) {
        const summary = await devnet.seed();
        logger.info({ network, lastBlock: summary.lastBlock.seqno }, 'devnet seeded');
      }
    }

    const app = createApp({ config, v2Handlers, v3Handlers, keys, limiter, logger });
    const ports = [...new Set(NETWORKS.map((n) => config[n].port).filter((p) => p > 0))];
    const servers: Gateway['servers'] = [];
    const running: RunningServer[] = [];
    for (const port of ports) {
      const server = await listen(app, port, config.listenHost, config);
      running.push(server);
      servers.push({ network: NETWORKS.find((n) => config[n].port === port) ?? 'all', port: server.port });
    }
    // Drain API listeners first (in-flight requests finish), then the rest shuts down.
    cleanups.push(async () => void (await Promise.all(running.map((s) => s.close()))));

    const token = newAdminToken();
    const admin = await listen(createAdminApp({ token, keys: store.keys, devnets }), 0, '127.0.0.1');
    const adminUrl = `http://127.0.0.1:${admin.port}`;
    const adminFile = writeAdminFile(config.dataDir, adminUrl, token);
    cleanups.push(async () => {
      removeAdminFile(config.dataDir, adminFile.token);
      await admin.close(1000);
    });
    return { servers, devnets, adminUrl, close };
  } catch (err) {
    await close();
    throw err;
  }
}
