import { writeFileSync } from 'node:fs';
import { createDevnet, type Devnet, type ElectionTiming } from '@tongate/devnet';
import { ChainLiteServer } from '@tongate/liteserver/server';
import type { Network } from '@tongate/server';

export interface DevnetLiteserver {
  devnet: Devnet;
  server: ChainLiteServer;
  /** The global config naming this liteserver (with `tongate.proofs: unsafe`, see below). */
  config: object;
  close(): Promise<void>;
}

/**
 * A devnet served over ADNL as a liteserver (what `tongate devnet liteserver` runs, and the e2e tests' liteserver
 * backend). Its global config carries `"tongate": { "proofs": "unsafe" }`: devnet block ids are not cell hashes, so
 * proofs from it cannot chain; tongate's liteserver backend reads that field, other clients ignore it.
 */
export async function startDevnetLiteserver(opts: {
  network: Network;
  dataDir?: string;
  blockIntervalMs?: number;
  electionTiming?: ElectionTiming;
  port?: number;
  host?: string;
  configFile?: string;
  logger?: { info(obj: object, msg?: string): void };
}): Promise<DevnetLiteserver> {
  const devnet = await createDevnet({ network: opts.network, dataDir: opts.dataDir, blockIntervalMs: opts.blockIntervalMs, electionTiming: opts.electionTiming, logger: opts.logger });
  const server = new ChainLiteServer({ chain: devnet });
  try {
    await server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1');
  } catch (err) {
    await devnet.close();
    throw err;
  }
  const config = { ...(await server.globalConfig(opts.host ?? '127.0.0.1')), tongate: { proofs: 'unsafe', note: 'devnet liteserver: block ids are not cell hashes' } };
  if (opts.configFile) writeFileSync(opts.configFile, `${JSON.stringify(config, null, 2)}\n`);
  return {
    devnet,
    server,
    config,
    async close() {
      await server.close();
      await devnet.close();
    },
  };
}
