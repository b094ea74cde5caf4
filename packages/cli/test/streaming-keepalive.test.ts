/**
 * Streaming API liveness with a short keep-alive interval (TONGATE_STREAM_KEEPALIVE_MS): SSE streams get the
 * `: keepalive` comment, WebSockets get pings, and a WebSocket whose peer stops answering (half-open) is closed and
 * its slot given back.
 */
import type { Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { useKeyedGateway } from './gateway-fixture.js';
import { openWs, sleep } from './stream-clients.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const KEEPALIVE_MS = 300;
const suite = useKeyedGateway({ devnetBlockIntervalMs: 0, streamKeepAliveMs: KEEPALIVE_MS, streamKeyConnections: 1 });
const address = `0:${'0'.repeat(63)}1`;

describe('Streaming API keep-alives', () => {
  it('an SSE stream gets a keepalive comment every interval', async () => {
    const res = await fetch(`http://127.0.0.1:${suite.service.ports.mainnet}/api/streaming/v2/sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-API-Key': suite.keys.mainnet },
      body: JSON.stringify({ types: ['transactions'], addresses: [address] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    const started = Date.now();
    while ((text.match(/: keepalive\n\n/g) ?? []).length < 2 && Date.now() - started < 5_000)
      text += new TextDecoder().decode((await reader.read()).value);
    expect(text.startsWith('event: connected\ndata: {"status":"subscribed"}\n\n')).toBe(true);
    expect((text.match(/: keepalive\n\n/g) ?? []).length).toBeGreaterThanOrEqual(2);
    await reader.cancel();
  });

  it('a WebSocket is pinged, and one that stops answering is closed and its slot freed', async () => {
    await sleep(200); // the SSE stream above gives its slot back
    const c = openWs(suite.service.ports.mainnet, { 'X-API-Key': suite.keys.mainnet });
    await c.opened;
    let pings = 0;
    c.ws.on('ping', () => pings++);
    c.send({ operation: 'subscribe', types: ['transactions'], addresses: [address] });
    await c.next('ack', (m) => m.status === 'subscribed');
    await sleep(KEEPALIVE_MS * 3);
    expect(pings).toBeGreaterThanOrEqual(2);
    expect(suite.service.gateway.streaming.hub.subscriberCount('mainnet')).toBe(1);
    // Half-open from the server's side: nothing comes back any more.
    (c.ws as unknown as { _socket: Socket })._socket.pause();
    const started = Date.now();
    while (suite.service.gateway.streaming.hub.subscriberCount('mainnet') > 0 && Date.now() - started < 5_000) await sleep(50);
    expect(suite.service.gateway.streaming.hub.subscriberCount('mainnet')).toBe(0);
    expect(Date.now() - started).toBeLessThan(KEEPALIVE_MS * 4);
    // The key's one slot is free again.
    const next = openWs(suite.service.ports.mainnet, { 'X-API-Key': suite.keys.mainnet });
    await next.opened;
    next.send({ id: 'p', operation: 'ping' });
    expect(await next.next('pong', (m) => m.id === 'p')).toEqual({ id: 'p', status: 'pong' });
    next.close();
    c.ws.terminate();
  });
});
