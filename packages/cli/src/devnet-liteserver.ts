import { writeFileSync } from 'node:fs';
import { createDevnet, type Devnet, type DevnetConsensus, type ElectionTiming } from '@tongate/devnet';
import { ChainLiteServer } from '@tongate/liteserver/server';
import type { Network } from '@tongate/server';

export interface DevnetLiteserver {
  devnet: Devnet;
  /** The first of `servers`. */
  server: ChainLiteServer;
  /** One liteserver per listening port, each with its own key, all answering from the same devnet. */
  servers: ChainLiteServer[];
  /** The global config naming every liteserver (with `tongate.proofs: checking`, see below). */
  config: object;
  /**
   * Drops liteserver `index` as a crash would: its connections and listening socket close with no answer to the
   * queries in flight. The devnet and the other liteservers go on.
   */
  stop(index: number): Promise<void>;
  /** Starts liteserver `index` again on its port with its key, so clients holding the config find it back. */
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A devnet served over ADNL as one or more liteservers (what `tongate devnet liteserver` runs, and the e2e tests'
 * liteserver backend). Several ports give several liteservers of one chain, as a real network has, so clients can
 * fail over between them. Its global config carries `"tongate": { "proofs": "checking" }`, the default: the devnet's
 * blocks are cells named by their hashes and every validator its elections can elect is one whose key it holds, so
 * a client proves its heads from the zero state (signature chain, simplex or ordinary sets) and its answers from the
 * block cells, as on mainnet. tongate's liteserver backend reads that field, other clients ignore it.
 */
export async function startDevnetLiteserver(opts: {
  network: Network;
  dataDir?: string;
  blockIntervalMs?: number;
  /** Basechain shards (default: the devnet's, 2). */
  shards?: number;
  electionTiming?: ElectionTiming;
  /** How its masterchain blocks are signed (default: the devnet's, simplex). */
  consensus?: DevnetConsensus;
  port?: number;
  /** Ports of the liteservers (overrides `port`); 0 picks a free one. */
  ports?: number[];
  host?: string;
  configFile?: string;
  logger?: { info(obj: object, msg?: string): void };
}): Promise<DevnetLiteserver> {
  const host = opts.host ?? '127.0.0.1';
  const ports = opts.ports?.length ? opts.ports : [opts.port ?? 0];
  const devnet = await createDevnet({
    network: opts.network,
    dataDir: opts.dataDir,
    blockIntervalMs: opts.blockIntervalMs,
    shards: opts.shards,
    electionTiming: opts.electionTiming,
    consensus: opts.consensus,
    logger: opts.logger,
  });
  const servers: ChainLiteServer[] = [];
  try {
    for (const port of ports) {
      const server = new ChainLiteServer({ chain: devnet });
      servers.push(server);
      await server.listen(port, host);
    }
  } catch (err) {
    for (const s of servers) await s.close().catch(() => undefined);
    await devnet.close();
    throw err;
  }
  const named = await Promise.all(servers.map((s) => s.globalConfig(host) as Promise<{ liteservers: object[] }>));
  const config = {
    ...named[0]!,
    liteservers: named.flatMap((c) => c.liteservers),
    tongate: { proofs: 'checking' },
  };
  if (opts.configFile) writeFileSync(opts.configFile, `${JSON.stringify(config, null, 2)}\n`);
  const stopped = new Set<number>();
  const running: DevnetLiteserver = {
    devnet,
    server: servers[0]!,
    servers,
    config,
    async stop(index) {
      if (stopped.has(index)) return;
      stopped.add(index);
      await servers[index]!.close();
    },
    async restart(index) {
      const old = servers[index]!;
      if (!stopped.has(index)) await old.close();
      const back = new ChainLiteServer({ chain: devnet, key: old.key });
      await back.listen(old.port, host);
      servers[index] = back;
      if (index === 0) running.server = back;
      stopped.delete(index);
    },
    async close() {
      for (const [i, s] of servers.entries()) if (!stopped.has(i)) await s.close();
      await devnet.close();
    },
  };
  return running;
}
