/**
 * Streaming API clients for the end-to-end tests, on the npm client libraries as any application uses them: `ws`
 * for the WebSocket, `eventsource` for SSE (its `fetch` option sends the subscription as the POST body).
 */
import { EventSource } from 'eventsource';
import WebSocket from 'ws';

export interface Collected {
  /** Every JSON object received, in order. */
  messages: any[];
  /** Resolves with the first message (already received or still to come) that passes `pred`. */
  next(what: string, pred: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

function collector(): { messages: any[]; push(m: any): void; next: Collected['next'] } {
  const messages: any[] = [];
  const waiters = new Set<{ pred: (m: any) => boolean; resolve: (m: any) => void }>();
  return {
    messages,
    push(m) {
      messages.push(m);
      for (const w of [...waiters]) if (w.pred(m)) (waiters.delete(w), w.resolve(m));
    },
    next(what, pred, timeoutMs = 20_000) {
      const found = messages.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const w = { pred, resolve: (m: any) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(
          () => (waiters.delete(w), reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(messages).slice(0, 2000)}`))),
          timeoutMs,
        );
        waiters.add(w);
      });
    },
  };
}

export interface SseStream extends Collected {
  es: EventSource;
  /** The `connected` frame's data, or the error that ended the stream (status and body). */
  opened: Promise<{ connected: any } | { status: number | undefined; message: string }>;
  /** The ids of events that carried one (finalized blocks). */
  ids: string[];
}

export function openSse(port: number, body: unknown, headers: Record<string, string> = {}): SseStream {
  const c = collector();
  const ids: string[] = [];
  const es = new EventSource(`http://127.0.0.1:${port}/api/streaming/v2/sse`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        method: 'POST',
        headers: { ...(init?.headers as Record<string, string>), 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
  });
  const opened = new Promise<{ connected: any } | { status: number | undefined; message: string }>((resolve) => {
    es.addEventListener('connected', (e) => resolve({ connected: JSON.parse(e.data) }));
    es.addEventListener('error', (e) => {
      resolve({ status: e.code, message: e.message ?? '' });
    });
  });
  es.addEventListener('event', (e) => {
    if (e.lastEventId) ids.push(e.lastEventId);
    c.push(JSON.parse(e.data));
  });
  return { es, opened, ids, messages: c.messages, next: c.next, close: () => es.close() };
}

export interface WsStream extends Collected {
  ws: WebSocket;
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  send(obj: unknown): void;
}

export function openWs(port: number, headers: Record<string, string> = {}): WsStream {
  const c = collector();
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/streaming/v2/ws`, { headers });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
  });
  opened.catch(() => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data) => c.push(JSON.parse(data.toString())));
  return {
    ws,
    opened,
    closed,
    send: (obj) => ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)),
    messages: c.messages,
    next: c.next,
    close: () => ws.close(),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
