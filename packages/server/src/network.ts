import type { Config, Network } from './config.js';
import { NETWORKS } from './config.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Host name without port, lower case. */
export function hostnameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

/**
 * Chooses the network of a request: a configured host name wins; a plain loopback host (curl http://127.0.0.1:8081/…)
 * gets the network whose dedicated port received the request. Anything else is unknown.
 */
export function createNetworkResolver(config: Pick<Config, Network>) {
  const byHost = new Map<string, Network>();
  const byPort = new Map<number, Network>();
  for (const net of NETWORKS) {
    for (const host of config[net].hosts) byHost.set(host.toLowerCase(), net);
    if (config[net].port > 0) byPort.set(config[net].port, net);
  }
  const knownHosts = [...byHost.keys()];
  return {
    knownHosts,
    resolve(hostHeader: string | undefined, localPort: number | undefined): Network | undefined {
      const host = hostnameOf(hostHeader);
      const named = byHost.get(host);
      if (named) return named;
      if (LOOPBACK_HOSTS.has(host) && localPort !== undefined) return byPort.get(localPort);
      return undefined;
    },
  };
}
