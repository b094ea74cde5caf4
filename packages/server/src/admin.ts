import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { KeyRepository } from '@tongate/store';
import type { Network } from './config.js';
import { NETWORKS } from './config.js';

/**
 * Loopback-only admin API. PGlite is single-process, so while the server holds the embedded database the CLI
 * manages keys through this endpoint. It listens on 127.0.0.1 only and requires the bearer token written to
 * `<dataDir>/admin.json` (mode 0600): whoever can read the data dir can administer the server.
 */
export interface AdminFile {
  url: string;
  token: string;
  pid: number;
}

export const ADMIN_FILE_NAME = 'admin.json';

export function adminFilePath(dataDir: string): string {
  return path.resolve(dataDir, ADMIN_FILE_NAME);
}

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

export function writeAdminFile(dataDir: string, url: string, token: string): AdminFile {
  mkdirSync(dataDir, { recursive: true });
  const file: AdminFile = { url, token, pid: process.pid };
  const target = adminFilePath(dataDir);
  writeFileSync(target, JSON.stringify(file), { mode: 0o600 });
  chmodSync(target, 0o600);
  return file;
}

export function readAdminFile(dataDir: string): AdminFile | undefined {
  try {
    return JSON.parse(readFileSync(adminFilePath(dataDir), 'utf8')) as AdminFile;
  } catch {
    return undefined;
  }
}

export function removeAdminFile(dataDir: string, token: string): void {
  // Only remove our own file: another server may have replaced it.
  if (readAdminFile(dataDir)?.token === token) rmSync(adminFilePath(dataDir), { force: true });
}

/** What the admin API asks of a devnet. */
export interface AdminDevnet {
  seed(): Promise<unknown>;
  /** Files a complaint with the devnet's elector and has the devnet validators vote for it (resolves once filed). */
  fileComplaint(request: {
    validatorPubkey?: string;
    suggestedFine?: bigint;
    suggestedFinePart?: number;
    severity?: number;
  }): Promise<unknown>;
}

export interface AdminOptions {
  token: string;
  keys: KeyRepository;
  devnets?: Partial<Record<Network, AdminDevnet>>;
}

function serialise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
}

export function createAdminApp(options: AdminOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  const expected = Buffer.from(options.token);
  app.use((req: Request, res: Response, next: NextFunction) => {
    const remote = req.socket.remoteAddress ?? '';
    if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(remote)) return res.status(403).json({ error: 'admin is loopback-only' });
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return res.status(401).json({ error: 'bad admin token' });
    next();
  });
  app.use(express.json());
  const wrap = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response) =>
    fn(req, res).catch((err: Error) => res.status(400).json({ error: err.message }));

  app.get(
    '/admin/keys',
    wrap(async (_req, res) => void res.json(serialise(await options.keys.list()))),
  );
  app.post(
    '/admin/keys',
    wrap(async (req, res) => {
      const b = req.body as {
        network: Network;
        rps: number;
        burst: number;
        label?: string;
        expiresAt?: string | null;
        streamConnections?: number | null;
        streamAddresses?: number | null;
      };
      const issued = await options.keys.create({ ...b, expiresAt: b.expiresAt ? new Date(b.expiresAt) : null });
      res.status(201).json(serialise(issued));
    }),
  );
  app.post(
    '/admin/keys/:id/revoke',
    wrap(async (req, res) => {
      const record = await options.keys.revoke(Number(req.params.id));
      if (!record) return void res.status(404).json({ error: `no key with id ${req.params.id}` });
      res.json(serialise(record));
    }),
  );
  app.post(
    '/admin/keys/:id/rotate',
    wrap(async (req, res) => {
      const grace = Number((req.body as { graceSeconds?: number }).graceSeconds ?? 86_400);
      const rotated = await options.keys.rotate(Number(req.params.id), grace);
      if (!rotated) return void res.status(404).json({ error: `no key with id ${req.params.id}` });
      res.json(serialise(rotated));
    }),
  );
  app.post(
    '/admin/devnet/:network/complaint',
    wrap(async (req, res) => {
      const network = req.params.network as Network;
      const devnet = NETWORKS.includes(network) ? options.devnets?.[network] : undefined;
      if (!devnet) return void res.status(404).json({ error: `no devnet for network ${req.params.network}` });
      const b = (req.body ?? {}) as { validatorPubkey?: unknown; suggestedFine?: unknown; suggestedFinePart?: unknown; severity?: unknown };
      const unknownField = Object.keys(b).find((k) => !['validatorPubkey', 'suggestedFine', 'suggestedFinePart', 'severity'].includes(k));
      if (unknownField !== undefined) return void res.status(400).json({ error: `unknown field: ${unknownField}` });
      if (b.validatorPubkey !== undefined && (typeof b.validatorPubkey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(b.validatorPubkey))) {
        return void res.status(400).json({ error: 'validatorPubkey: expected 64 hex digits' });
      }
      if (b.suggestedFine !== undefined && (typeof b.suggestedFine !== 'string' || !/^\d+$/.test(b.suggestedFine)))
        return void res.status(400).json({ error: 'suggestedFine: expected nanotons as a decimal string' });
      const uint = (v: unknown, max: number) => v === undefined || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max);
      if (!uint(b.suggestedFinePart, 2 ** 32 - 1))
        return void res.status(400).json({ error: 'suggestedFinePart: expected an integer 0…2^32−1' });
      if (!uint(b.severity, 255)) return void res.status(400).json({ error: 'severity: expected an integer 0…255' });
      const filed = await devnet.fileComplaint({
        validatorPubkey: b.validatorPubkey as string | undefined,
        suggestedFine: b.suggestedFine === undefined ? undefined : BigInt(b.suggestedFine as string),
        suggestedFinePart: b.suggestedFinePart as number | undefined,
        severity: b.severity as number | undefined,
      });
      res.json(serialise(filed));
    }),
  );
  app.post(
    '/admin/devnet/:network/seed',
    wrap(async (req, res) => {
      const network = req.params.network as Network;
      const devnet = NETWORKS.includes(network) ? options.devnets?.[network] : undefined;
      if (!devnet) return void res.status(404).json({ error: `no devnet for network ${req.params.network}` });
      res.json(serialise(await devnet.seed()));
    }),
  );
  return app;
}
