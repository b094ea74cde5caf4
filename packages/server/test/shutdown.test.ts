import { describe, expect, it } from 'vitest';
import express from 'express';
import { listen } from '../src/index.js';
import { request } from './helpers.js';

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, then refuses new connections', async () => {
    const app = express();
    app.get('/slow', (_req, res) => {
      setTimeout(() => res.json({ done: true }), 400);
    });
    const server = await listen(app, 0, '127.0.0.1');
    const inFlight = request(server.port, { path: '/slow' });
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close(5000);
    const reply = await inFlight;
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ done: true });
    await closed;
    await expect(request(server.port, { path: '/slow' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
