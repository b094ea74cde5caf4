/** The stores a test file runs on: PGlite in a temp dir, and PostgreSQL in a schema of its own when DATABASE_URL is set. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { dropSchema, openStore, type Store } from '../src/index.js';

export interface Backend {
  name: string;
  open(): Promise<Store>;
  cleanup(): Promise<void>;
}

export function storeBackends(prefix: string): Backend[] {
  const databaseUrl = process.env.DATABASE_URL;
  const runId = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `tongate-${prefix}-`));
  const backends: Backend[] = [
    { name: 'pglite', open: () => openStore({ dataDir }), cleanup: async () => rmSync(dataDir, { recursive: true, force: true }) },
  ];
  if (databaseUrl)
    backends.push({
      name: 'postgres',
      open: () => openStore({ databaseUrl, schema: runId }),
      cleanup: () => dropSchema(databaseUrl, runId),
    });
  return backends;
}

/** Opens and migrates (twice: migrations are idempotent) the backend's store before the suite, closes it after. */
export function migratedStore(backend: Backend): { store: Store } {
  const state = {} as { store: Store };
  beforeAll(async () => {
    state.store = await backend.open();
    await state.store.migrate();
    await state.store.migrate();
  });
  afterAll(async () => {
    await state.store.close();
    await backend.cleanup();
  });
  return state;
}
