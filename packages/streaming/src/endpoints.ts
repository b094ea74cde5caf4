import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Network } from './events.js';
import { StreamHub, Subscriber } from './hub.js';
import { parseSubscription, parseUnsubscribe, ProtocolError, type Subscription } from './protocol.js';
import { MemoryConnectionRegistry, type ConnectionRegistry } from './registry.js';

/** Who opened a stream, as the front door authenticated it. */
export interface StreamClient {
  network: Network;
  /** The API key's id; null for a keyless client (limited per client address). */
  keyId: number | null;
  /** The key's own plan; a null or absent field takes the deployment's key limit. -1: no limit. */
  plan?: { connections: number | null; addresses: number | null };
  clientAddress: string;
  headers: IncomingHttpHeaders;
}

/** Per limiting key (an API key, or a keyless client's address). -1: no limit. */
export interface StreamLimits {
  keyConnections: number;
  keyAddresses: number;
  keylessConnections: number;
  keylessAddresses: number;
  /** Streams a limiting key may open per minute (reconnect storms). */
  connectsPerMinute: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  keyConnections: 2,
  keyAddresses: 1_000,
  keylessConnections: 1,
  keylessAddresses: 10,
  connectsPerMinute: 30,
};

export interface StreamLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface StreamingOptions {
  hub: StreamHub;
  limits?: Partial<StreamLimits>;
  /** SSE comment / WebSocket ping interval (default 15 s, the hosted one). */
  keepAliveMs?: number;
  /** Bytes a subscriber may leave unsent before it is dropped (default 4 MiB). */
  maxBufferedBytes?: number;
  /** A WebSocket without a subscription for this long is closed (default 60 s). */
  idleMs?: number;
  /** Largest SSE body / WebSocket message (default 1 MiB). */
  maxRequestBytes?: number;
  logger?: StreamLogger;
  /** Where open streams are counted per key (default: this process). */
  registry?: ConnectionRegistry;
}

/** Client messages a WebSocket may send per 10 s; past it the connection is closed. */
const MAX_MESSAGES_PER_10S = 200;
const CLOSE_POLICY = 1008;
/** How long a dropped subscriber has to read its close reason (behind what it left unread) before the socket goes. */
const DROP_GRACE_MS = 5_000;
const CLOSE_SLOW = 4008;

const json = (value: object) => JSON.stringify(value);

/**
 * The two Streaming API v2 endpoints over one hub: `POST /api/streaming/v2/sse` and `GET /api/streaming/v2/ws`.
 * Every connection is bounded: its request size, its unsent bytes (a subscriber that does not read is dropped with
 * a reason), its message rate, and its liveness (keep-alives that find the peer gone close it).
 */
export class StreamingEndpoints {
  private readonly hub: StreamHub;
  private readonly limits: StreamLimits;
  private readonly keepAliveMs: number;
  private readonly maxBuffered: number;
  private readonly idleMs: number;
  private readonly maxRequestBytes: number;
  private readonly wss: WebSocketServer;
  private readonly registry: ConnectionRegistry;
  private readonly closers = new Set<() => void>();
  /** Subscribers dropped for not reading (metrics and tests). */
  dropped = 0;

  constructor(private readonly opts: StreamingOptions) {
    this.hub = opts.hub;
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...opts.limits };
    this.keepAliveMs = opts.keepAliveMs ?? 15_000;
    this.maxBuffered = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
    this.idleMs = opts.idleMs ?? 60_000;
    this.maxRequestBytes = opts.maxRequestBytes ?? 1024 * 1024;
    this.registry = opts.registry ?? new MemoryConnectionRegistry();
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.maxRequestBytes, perMessageDeflate: false });
  }

  get connections(): number {
    return this.closers.size;
  }

  private limitingKey(client: StreamClient): string {
    return client.keyId === null ? `ip:${client.network}:${client.clientAddress}` : `key:${client.keyId}`;
  }

  private maxConnections(client: StreamClient): number {
    if (client.keyId === null) return this.limits.keylessConnections;
    return client.plan?.connections ?? this.limits.keyConnections;
  }

  maxAddresses(client: StreamClient): number {
    if (client.keyId === null) return this.limits.keylessAddresses;
    return client.plan?.addresses ?? this.limits.keyAddresses;
  }

  /** Takes a connection slot, or says why not (the hosted messages). */
  private admit(client: StreamClient): Promise<{ release: () => void } | { error: string }> {
    return this.registry.acquire(this.limitingKey(client), this.maxConnections(client), this.limits.connectsPerMinute);
  }

  private checkAddresses(client: StreamClient, subscription: Subscription, mode: 'sse' | 'ws'): string | null {
    const max = this.maxAddresses(client);
    const n = subscription.addresses.size;
    if (max < 0 || n <= max) return null;
    return mode === 'sse' ? `too many addresses: ${n} > max ${max}` : `address limit exceeded: current 0 + new ${n} > max ${max}`;
  }

  /** `POST /api/streaming/v2/sse`: the body is the subscription; the reply is the event stream. */
  sse(req: IncomingMessage, res: ServerResponse, client: StreamClient): void {
    const fail = (status: number, error: string, id?: string) => {
      if (res.headersSent) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(json(id === undefined ? { error } : { error, id }));
    };
    readBody(req, this.maxRequestBytes)
      .then(
        (text) => {
          let subscription: Subscription;
          try {
            const type = String(req.headers['content-type'] ?? '');
            if (!/^application\/json\b/i.test(type))
              throw new ProtocolError('invalid subscription request: Content-Type must be application/json');
            let body: unknown;
            try {
              body = JSON.parse(text);
            } catch (err) {
              throw new ProtocolError(`invalid subscription request: ${(err as Error).message}`);
            }
            subscription = parseSubscription(body, { mode: 'sse', actionsVersion: headerText(req.headers['x-actions-version']) });
            const lastEventId = headerText(req.headers['last-event-id']);
            if (subscription.afterMcSeqno === undefined && lastEventId && /^\d{1,10}$/.test(lastEventId))
              subscription.afterMcSeqno = Number(lastEventId);
          } catch (err) {
            if (err instanceof ProtocolError) return fail(400, err.message, err.id);
            throw err;
          }
          const tooMany = this.checkAddresses(client, subscription, 'sse');
          if (tooMany) return fail(400, tooMany, subscription.id);
          return this.admit(client).then((slot) => {
            if ('error' in slot) return fail(429, slot.error, subscription.id);
            // The client may have gone while the slot was taken.
            if (req.socket.destroyed) return slot.release();
            this.openSse(req, res, client, subscription, slot.release);
          });
        },
        (err: Error) => fail(err.message.startsWith('body larger') ? 413 : 400, `invalid subscription request: ${err.message}`),
      )
      .catch((err: unknown) => {
        this.opts.logger?.warn({ err }, 'stream not opened');
        if (!res.headersSent) fail(500, 'internal error');
        else res.destroy();
      });
  }

  private openSse(req: IncomingMessage, res: ServerResponse, client: StreamClient, subscription: Subscription, release: () => void): void {
    const socket = req.socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(
      `event: connected\ndata: ${json(subscription.id === undefined ? { status: 'subscribed' } : { id: subscription.id, status: 'subscribed' })}\n\n`,
    );
    let closed = false;
    const sub = new Subscriber(client.network, {
      send: (text, mcSeqno) => {
        if (closed) return;
        res.write(`event: event\n${mcSeqno === undefined ? '' : `id: ${mcSeqno}\n`}data: ${text}\n\n`);
        if (res.writableLength > this.maxBuffered) drop(`subscriber too slow: more than ${this.maxBuffered} bytes unsent`);
      },
    });
    let stalledTicks = 0;
    let lastWritten = socket.bytesWritten;
    const keepAlive = setInterval(() => {
      // A peer that reads nothing across two keep-alives (half-open, or stopped reading) is let go.
      if (res.writableLength > 0 && socket.bytesWritten === lastWritten) stalledTicks++;
      else stalledTicks = 0;
      lastWritten = socket.bytesWritten;
      if (stalledTicks >= 2) return drop('subscriber not reading: keep-alives unsent');
      res.write(': keepalive\n\n');
    }, this.keepAliveMs);
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      this.hub.remove(sub);
      release();
      this.closers.delete(shutdown);
    };
    const drop = (reason: string) => {
      if (closed) return;
      this.dropped++;
      this.opts.logger?.warn({ network: client.network, reason }, 'stream subscriber dropped');
      close();
      res.end(`event: error\ndata: ${json({ error: reason })}\n\n`);
      // The reason is queued behind what it did not read: the socket goes after a moment either way.
      setTimeout(() => res.destroy(), DROP_GRACE_MS).unref();
    };
    const shutdown = () => {
      close();
      res.end();
    };
    this.closers.add(shutdown);
    res.on('close', close);
    res.on('error', close);
    this.hub.subscribe(sub, subscription);
  }

  /** `GET /api/streaming/v2/ws` with `Upgrade: websocket`. */
  websocket(req: IncomingMessage, socket: Duplex, head: Buffer, client: StreamClient): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.openWs(ws, client).catch((err) => {
        this.opts.logger?.warn({ err }, 'stream not opened');
        ws.terminate();
      });
    });
  }

  private async openWs(ws: WebSocket, client: StreamClient): Promise<void> {
    // Messages arriving while the slot is taken wait for the handlers below.
    ws.pause();
    const slot = await this.admit(client);
    ws.resume();
    if (ws.readyState !== ws.OPEN) {
      if (!('error' in slot)) slot.release();
      return;
    }
    if ('error' in slot) {
      ws.send(json({ error: slot.error }));
      ws.close(CLOSE_POLICY, slot.error.slice(0, 120));
      return;
    }
    const actionsVersion = headerText(client.headers['x-actions-version']);
    let closed = false;
    const sendText = (text: string) => {
      if (closed) return;
      ws.send(text);
      if (ws.bufferedAmount > this.maxBuffered) drop(`subscriber too slow: more than ${this.maxBuffered} bytes unsent`);
    };
    const reply = (obj: object) => sendText(json(obj));
    const sub = new Subscriber(client.network, { send: (text) => sendText(text) });
    let alive = true;
    let idleSince: number | null = Date.now();
    let messages = 0;
    const keepAlive = setInterval(
      () => {
        if (!alive) return drop('no pong: connection presumed dead', 1001);
        if (idleSince !== null && Date.now() - idleSince >= this.idleMs) return drop('idle: no subscription', 1000);
        alive = false;
        messages = 0;
        ws.ping();
      },
      Math.min(this.keepAliveMs, this.idleMs),
    );
    ws.on('pong', () => (alive = true));
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      this.hub.remove(sub);
      slot.release();
      this.closers.delete(shutdown);
    };
    const drop = (reason: string, code = CLOSE_SLOW) => {
      if (closed) return;
      if (code === CLOSE_SLOW) {
        this.dropped++;
        this.opts.logger?.warn({ network: client.network, reason }, 'stream subscriber dropped');
      }
      close();
      ws.close(code, reason.slice(0, 120));
      setTimeout(() => ws.terminate(), DROP_GRACE_MS).unref();
    };
    const shutdown = () => {
      close();
      ws.close(1001, 'server shutting down');
    };
    this.closers.add(shutdown);
    ws.on('close', close);
    ws.on('error', close);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      alive = true;
      if (++messages > MAX_MESSAGES_PER_10S)
        return drop(`too many messages: more than ${MAX_MESSAGES_PER_10S} per keep-alive interval`, CLOSE_POLICY);
      const text = rawText(data);
      let envelope: unknown;
      try {
        if (text === null) throw new Error(isBinary ? 'binary frame is not UTF-8 JSON' : 'frame is not UTF-8');
        envelope = JSON.parse(text);
      } catch (err) {
        return reply({ error: `invalid request envelope: ${(err as Error).message}` });
      }
      if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope))
        return reply({ error: 'invalid request envelope: a message must be a JSON object' });
      const body = envelope as Record<string, unknown>;
      const id = typeof body.id === 'string' ? body.id.slice(0, 128) : undefined;
      const withId = (obj: Record<string, unknown>) => (id === undefined ? obj : { id, ...obj });
      try {
        switch (body.operation) {
          case 'ping':
            return reply(withId({ status: 'pong' }));
          case 'subscribe': {
            const subscription = parseSubscription(body, { mode: 'ws', previous: sub.subscription ?? undefined, actionsVersion });
            const tooMany = this.checkAddresses(client, subscription, 'ws');
            if (tooMany) return reply(withId({ error: tooMany }));
            idleSince = null;
            reply(withId({ status: 'subscribed' }));
            this.hub.subscribe(sub, subscription);
            return;
          }
          case 'unsubscribe': {
            const { addresses, hashes } = parseUnsubscribe(body);
            this.hub.unsubscribe(sub, addresses, hashes);
            return reply(withId({ status: 'unsubscribed' }));
          }
          default:
            return reply(
              withId({
                error: `unknown operation: ${typeof body.operation === 'string' ? body.operation.slice(0, 64) : String(body.operation)}`,
              }),
            );
        }
      } catch (err) {
        if (err instanceof ProtocolError) return reply(withId({ error: err.message }));
        this.opts.logger?.warn({ err }, 'stream message failed');
        return reply(withId({ error: 'internal error' }));
      }
    });
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const c of [...this.closers]) c();
    this.wss.close();
    void this.registry.close();
  }
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}

function rawText(data: RawData): string | null {
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return null;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new Error(`body larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
