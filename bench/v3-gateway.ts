/**
 * The API process of bench:v3's volume phase: the gateway (`startGateway`, as `tongate start` runs it) on the config
 * and PostgreSQL schema the parent passes, in a process of its own as an API process is in production, so that the
 * bench's client, its bare express route and its fills share neither its event loop nor its heap. Prints `READY`
 * once it listens; stops on SIGTERM.
 */
import { startGateway } from '@tongate/cli';
import type { Config } from '@tongate/server';

const config = JSON.parse(process.env.BENCH_V3_GATEWAY_CONFIG ?? '') as Config;
const gateway = await startGateway(config, { schema: process.env.BENCH_V3_GATEWAY_SCHEMA || undefined });
process.stdout.write('READY\n');
process.once('SIGTERM', () => {
  void gateway.close().finally(() => process.exit(0));
});
