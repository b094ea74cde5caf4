import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundles } from '../src/bundles.js';
import { installedVersion, WRITTEN_FOR } from '../src/fast/openapi-validator.js';
import { listen, type RunningServer } from '../src/index.js';
import { createValidator, type OperationValidator } from '../src/validator.js';
import { request } from './helpers.js';

// The validator's fast path (fast/openapi-validator.ts, on the library's internals) runs only on the release it was
// written for; on any other the library's public middleware validates. Both must answer every request alike.

const ADDRESS = 'EQBsyfA5o-WPrOpEbLqpLCZ-9FEIazZ4BBPx_Rkc_yRCh9eE';

/** A bare app around one v2 and one v3 validator: what they matched, or the error they raised. */
async function serve(seam: { installed?: string }): Promise<{ server: RunningServer; validators: OperationValidator[] }> {
  const bundles = loadBundles();
  const v2 = createValidator('v2', bundles.v2, false, /^\/api\/v2\/jsonRPC$/, seam);
  const v3 = createValidator('v3', bundles.v3, false, undefined, seam);
  const app = express();
  app.use(express.json());
  app.use((req: Request, res: Response, next: NextFunction) => {
    const validator = req.path.startsWith('/api/v2/') ? v2 : v3;
    validator.handle(req, res, (err?: unknown) => {
      if (err) return next(err);
      const matched = (req as unknown as { openapi?: { openApiRoute: string } }).openapi;
      res.json({ matched: matched?.openApiRoute ?? null, query: req.query, body: req.body ?? null });
    });
  });
  app.use(
    (
      err: { status?: number; message?: string; errors?: unknown; headers?: unknown },
      _req: Request,
      res: Response,
      _next: NextFunction,
    ) => {
      void _next;
      res.status(err.status ?? 500).json({ error: err.message, errors: err.errors ?? null, headers: err.headers ?? null });
    },
  );
  return { server: await listen(app, 0, '127.0.0.1'), validators: [v2, v3] };
}

const CASES: { method?: string; path: string; body?: unknown }[] = [
  { path: `/api/v2/getAddressInformation?address=${ADDRESS}` },
  { path: `/api/v2/getAddressInformation/?address=${ADDRESS}` },
  { path: `/api/v2/GETADDRESSINFORMATION?address=${ADDRESS}` },
  { path: '/api/v2/getAddressInformation' },
  { path: '/api/v2/getAddressInformation?address=nope' },
  { path: `/api/v2/getAddressInformation?address=${ADDRESS}&extra=1` },
  { path: '/api/v2/getTransactions?address=' + ADDRESS + '&limit=5&lt=17' },
  { path: '/api/v2/getTransactions?address=' + ADDRESS + '&limit=ten' },
  { path: '/api/v2/getBlockHeader?workchain=-1&shard=-9223372036854775808&seqno=1' },
  { path: '/api/v2/noSuchOperation' },
  { method: 'DELETE', path: '/api/v2/getMasterchainInfo' },
  { method: 'POST', path: '/api/v2/sendBoc', body: { boc: 'te6c' } },
  { method: 'POST', path: '/api/v2/sendBoc', body: { boc: 42 } },
  { method: 'POST', path: '/api/v2/jsonRPC', body: { anything: true } },
  { path: `/api/v3/walletInformation?address=${ADDRESS}` },
  { path: '/api/v3/walletInformation?address=' },
  { method: 'POST', path: '/api/v3/runGetMethod', body: { address: ADDRESS, method: 'seqno', stack: [] } },
];

describe('express-openapi-validator seam', () => {
  let fast: Awaited<ReturnType<typeof serve>>;
  let publicPath: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    fast = await serve({});
    publicPath = await serve({ installed: '5.6.3' });
  });
  afterAll(async () => {
    await fast?.server.close();
    await publicPath?.server.close();
  });

  it('takes the fast path only on the release it was written for', () => {
    expect(installedVersion()).toBe(WRITTEN_FOR);
    expect(fast.validators.map((v) => v.path)).toEqual(['fast', 'fast']);
    expect(publicPath.validators.map((v) => v.path)).toEqual(['public', 'public']);
  });

  it('answers every request as the public middleware does', async () => {
    for (const c of CASES) {
      const send = (port: number) => request(port, { method: c.method, path: c.path, body: c.body });
      const [a, b] = [await send(fast.server.port), await send(publicPath.server.port)];
      expect({ status: a.status, body: a.body }, `${c.method ?? 'GET'} ${c.path}`).toEqual({ status: b.status, body: b.body });
    }
    // The cases cover a match, a bad parameter, an unknown path and a wrong method.
    const statuses = new Set<number>();
    for (const c of CASES) statuses.add((await request(fast.server.port, { method: c.method, path: c.path, body: c.body })).status);
    expect([...statuses].sort()).toEqual([200, 400, 404, 405]);
  });
});
