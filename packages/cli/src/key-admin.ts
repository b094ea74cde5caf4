import { type ApiKeyRecord, type CreateKeyInput, type IssuedKey, type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { readAdminFile, type AdminFile, type Config } from '@tongate/server';

/** Key management as the CLI sees it, whether through the database or through a running server. */
export interface KeyAdmin {
  readonly via: string;
  create(input: CreateKeyInput): Promise<IssuedKey>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(id: number): Promise<ApiKeyRecord | undefined>;
  rotate(id: number, graceSeconds: number): Promise<(IssuedKey & { old: ApiKeyRecord }) | undefined>;
  close(): Promise<void>;
}

function revive<T>(value: T): T {
  // The admin API sends dates as ISO strings; turn the known date fields back into Dates.
  const fix = (r: Record<string, unknown>) => {
    for (const k of ['created_at', 'expires_at', 'revoked_at']) if (typeof r[k] === 'string') r[k] = new Date(r[k] as string);
  };
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      fix(v as Record<string, unknown>);
      for (const inner of Object.values(v)) if (inner && typeof inner === 'object') walk(inner);
    }
  };
  walk(value);
  return value;
}

export class RemoteKeyAdmin implements KeyAdmin {
  readonly via: string;
  constructor(private readonly admin: AdminFile) {
    this.via = `running server (pid ${admin.pid}, ${admin.url})`;
  }
  async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; data: T }> {
    const res = await fetch(this.admin.url + path, {
      method,
      headers: { authorization: `Bearer ${this.admin.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const data = (await res.json()) as T & { error?: string };
    if (res.status >= 400 && res.status !== 404) throw new Error(data.error ?? `admin API answered ${res.status}`);
    return { status: res.status, data: revive(data) };
  }
  async ping(): Promise<boolean> {
    try {
      await this.call('GET', '/admin/keys');
      return true;
    } catch {
      return false;
    }
  }
  async create(input: CreateKeyInput) {
    return (await this.call<IssuedKey>('POST', '/admin/keys', input)).data;
  }
  async list() {
    return (await this.call<ApiKeyRecord[]>('GET', '/admin/keys')).data;
  }
  async revoke(id: number) {
    const r = await this.call<ApiKeyRecord>('POST', `/admin/keys/${id}/revoke`);
    return r.status === 404 ? undefined : r.data;
  }
  async rotate(id: number, graceSeconds: number) {
    const r = await this.call<IssuedKey & { old: ApiKeyRecord }>('POST', `/admin/keys/${id}/rotate`, { graceSeconds });
    return r.status === 404 ? undefined : r.data;
  }
  async close() {}
}

class DirectKeyAdmin implements KeyAdmin {
  constructor(
    private readonly store: Store,
    readonly via: string,
  ) {}
  create(input: CreateKeyInput) {
    return this.store.keys.create(input);
  }
  list() {
    return this.store.keys.list();
  }
  revoke(id: number) {
    return this.store.keys.revoke(id);
  }
  rotate(id: number, graceSeconds: number) {
    return this.store.keys.rotate(id, graceSeconds);
  }
  close() {
    return this.store.close();
  }
}

/**
 * PostgreSQL: open the database directly (many processes may). Embedded PGlite: a running server owns the data
 * dir, so go through its loopback admin API; when no server answers, open the data dir directly.
 */
export async function openKeyAdmin(config: Config): Promise<KeyAdmin> {
  if (!config.databaseUrl) {
    const adminFile = readAdminFile(config.dataDir);
    if (adminFile) {
      const remote = new RemoteKeyAdmin(adminFile);
      if (await remote.ping()) return remote;
    }
  }
  const store = await openIndexStore({
    databaseUrl: config.databaseUrl || undefined,
    dataDir: config.dataDir,
    schema: (config.databaseUrl && config.databaseSchema) || undefined,
  });
  await store.migrate();
  return new DirectKeyAdmin(store, store.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${config.dataDir}`);
}
