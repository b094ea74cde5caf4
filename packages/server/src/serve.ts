import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the rest. */
  close(graceMs?: number): Promise<void>;
}

/** Connection limits of a listener (see the configuration table). */
export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  connectionsCheckIntervalMs: number;
  /** 0 = no cap. */
  maxConnectionsPerClient: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  connectionsCheckIntervalMs: 5_000,
  maxConnectionsPerClient: 256,
};

/**
 * An HTTP listener that idle or slow clients cannot exhaust: a connection that has not sent its headers within
 * headersTimeoutMs (checked every connectionsCheckIntervalMs; Node's defaults hold a silent socket for about 90 s)
 * or its whole request within requestTimeoutMs is closed, idle keep-alive connections after keepAliveTimeoutMs,
 * and one client address holds at most maxConnectionsPerClient connections (further ones are closed at once).
 */
export function listen(app: Express, port: number, host: string, limits: Partial<ConnectionLimits> = {}): Promise<RunningServer> {
  const l = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  return new Promise((resolve, reject) => {
    const server = http.createServer(
      {
        headersTimeout: l.headersTimeoutMs,
        requestTimeout: Math.max(l.requestTimeoutMs, l.headersTimeoutMs),
        connectionsCheckingInterval: l.connectionsCheckIntervalMs,
      },
      app,
    );
    server.keepAliveTimeout = l.keepAliveTimeoutMs;
    // HTTP upgrades (the Streaming API's WebSocket) when the app takes them; without a listener Node refuses them.
    const onUpgrade = app.locals.onUpgrade as
      ((req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => void) | undefined;
    if (onUpgrade) server.on('upgrade', onUpgrade);
    if (l.maxConnectionsPerClient > 0) capConnectionsPerClient(server, l.maxConnectionsPerClient);
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const actual = (server.address() as AddressInfo).port;
      resolve({
        server,
        port: actual,
        close(graceMs = 10_000) {
          return new Promise<void>((done) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            server.close(() => {
              clearTimeout(force);
              done();
            });
            // Idle keep-alive sockets would hold close() open; busy ones finish their request first.
            server.closeIdleConnections();
          });
        },
      });
    });
  });
}

function capConnectionsPerClient(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = (open.get(client) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
