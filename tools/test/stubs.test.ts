// The generated mount functions against a real express app: handlers answer, missing ones give 501 through
// next(), and jsonRPC is left to the front door.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Address } from '@ton/core';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, mountV2, mountV3, v2Routes, v3Routes, type RequestContext, type V2Handlers, type V3Handlers } from '@tongate/stubs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: Server;
let base: string;
const seen: RequestContext[] = [];

/** A v2 GET operation with an address parameter, another one, and the first v3 one. */
const v2Target = v2Routes.find((r) => r.operationId === 'getAddressInformation')!;
const v2Unhandled = v2Routes.find((r) => r.method === 'get' && r.operationId !== v2Target.operationId)!;
const v3Unhandled = v3Routes.find((r) => r.method === 'get' && !r.path.includes('{'))!;

class AccountHandlers {
  readonly marker = 'from-instance';
  async handle(input: { query: { address: object; seqno?: number }; ctx: RequestContext }) {
    seen.push(input.ctx);
    // The handler gets the decoded input: the address as an Address.
    const { address, seqno } = input.query;
    return {
      status: 200,
      body: { ok: true, result: { marker: this.marker, address: address.toString(), seqno, isAddress: address instanceof Address } },
    };
  }
}

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.ctx = { network: 'testnet', requestId: 'req-1', startedAt: 0 } satisfies RequestContext;
    next();
  });
  const instance = new AccountHandlers();
  // Bound through a method name so that `this` inside the handler must be the handlers object.
  const v2Handlers = Object.assign(Object.create(instance), { [v2Target.operationId]: AccountHandlers.prototype.handle });
  const v2Router = express.Router();
  mountV2(v2Router, v2Handlers as Partial<V2Handlers>);
  const v3Router = express.Router();
  mountV3(v3Router, {} as Partial<V3Handlers>);
  app.use('/api/v2', v2Router);
  app.use('/api/v3', v3Router);
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof ApiError) res.status(err.status).json({ error: err.message });
    else res.status(500).json({ error: String(err) });
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).json({ error: 'no route' });
  });
  await new Promise<void>((resolve) => {
    server = app.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('mountV2 / mountV3', () => {
  it('calls the handler with the decoded query and context, this bound to the handlers object, and sends its reply', async () => {
    const friendly = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
    const res = await fetch(`${base}/api/v2${v2Target.path}?address=${friendly}&seqno=7`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, result: { marker: 'from-instance', address: friendly, seqno: 7, isAddress: true } });
    const bad = await fetch(`${base}/api/v2${v2Target.path}?address=nope`);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ error: 'address: not a valid TON address (raw 0:<64 hex> or 48-character user-friendly)' });
    expect(seen.at(-1)).toEqual({ network: 'testnet', requestId: 'req-1', startedAt: 0 });
  });

  it('answers 501 for an operation without a handler', async () => {
    const res = await fetch(`${base}/api/v2${v2Unhandled.path}`);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: `not implemented yet: ${v2Unhandled.operationId}` });
    const v3 = await fetch(`${base}/api/v3${v3Unhandled.path}`);
    expect(v3.status).toBe(501);
    expect(await v3.json()).toEqual({ error: `not implemented yet: ${v3Unhandled.operationId}` });
  });

  it('does not mount jsonRPC: the front door owns it', async () => {
    expect(v2Routes.some((r) => r.operationId === 'jsonRPC')).toBe(true);
    const res = await fetch(`${base}/api/v2/jsonRPC`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
  });
});
