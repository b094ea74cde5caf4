import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { ApiKeysTable, Database, NetworkName } from './schema.js';

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const KEY_PREFIX = 'tgk_';

export type ApiKeyRecord = Omit<Selectable<ApiKeysTable>, 'key_hash'>;

export interface Plan {
  rps: number;
  burst: number;
}

/** A key's Streaming API plan; null or absent = the deployment's default, -1 = no limit. */
export interface StreamPlan {
  /** Concurrent streams (SSE and WebSocket together); 0 = no streaming for this key. */
  streamConnections?: number | null;
  /** Addresses one stream may subscribe to. */
  streamAddresses?: number | null;
}

export interface CreateKeyInput extends Plan, StreamPlan {
  network: NetworkName;
  label?: string;
  expiresAt?: Date | null;
}

export interface IssuedKey {
  /** The secret itself: shown once, never stored. */
  key: string;
  record: ApiKeyRecord;
}

/** 32 random bytes, base64url: 256 bits of entropy, so a plain sha256 is a safe one-way hash. */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

// crypto.hash (Node ≥ 20.12) is the one-shot digest: a third of createHash's cost, paid on every keyed request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function hashKey(key: string): string {
  return oneShot ? oneShot('sha256', key, 'hex') : createHash('sha256').update(key, 'utf8').digest('hex');
}

const PUBLIC_COLUMNS = [
  'id',
  'key_prefix',
  'network',
  'rps',
  'burst',
  'stream_connections',
  'stream_addresses',
  'label',
  'created_at',
  'expires_at',
  'revoked_at',
  'replaced_by',
] as const;

export class KeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(input: CreateKeyInput): Promise<IssuedKey> {
    return this.db.transaction().execute(async (tx) => {
      const issued = await insertKey(tx, input);
      await bumpVersion(tx);
      return issued;
    });
  }

  async list(): Promise<ApiKeyRecord[]> {
    return this.db.selectFrom('api_keys').select(PUBLIC_COLUMNS).orderBy('id').execute();
  }

  async get(id: number): Promise<ApiKeyRecord | undefined> {
    return this.db.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** Revokes at once. Returns the record, or undefined when no key has this id. */
  async revoke(id: number): Promise<ApiKeyRecord | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('api_keys')
        .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` as unknown as Date })
        .where('id', '=', id)
        .returning(PUBLIC_COLUMNS)
        .executeTakeFirst();
      if (row) await bumpVersion(tx);
      return row;
    });
  }

  /**
   * Issues a new key with the same network, plan and label; the old key stays valid for `graceSeconds`
   * (its expiry is brought forward to now + grace, never pushed later).
   */
  async rotate(id: number, graceSeconds: number): Promise<(IssuedKey & { old: ApiKeyRecord }) | undefined> {
    if (!Number.isFinite(graceSeconds) || graceSeconds < 0) throw new Error('grace must be a non-negative number of seconds');
    return this.db.transaction().execute(async (tx) => {
      const old = await tx.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!old) return undefined;
      if (old.revoked_at) throw new Error(`key ${id} is revoked; create a new key instead`);
      const issued = await insertKey(tx, {
        network: old.network,
        rps: old.rps,
        burst: old.burst,
        streamConnections: old.stream_connections,
        streamAddresses: old.stream_addresses,
        label: old.label,
        expiresAt: old.expires_at,
      });
      const graceEnd = new Date(Date.now() + graceSeconds * 1000);
      const newExpiry = old.expires_at && old.expires_at < graceEnd ? old.expires_at : graceEnd;
      const updated = await tx
        .updateTable('api_keys')
        .set({ expires_at: newExpiry, replaced_by: issued.record.id })
        .where('id', '=', id)
        .returning(PUBLIC_COLUMNS)
        .executeTakeFirstOrThrow();
      await bumpVersion(tx);
      return { ...issued, old: updated };
    });
  }

  /** Exact lookup by the key's hash (uncached). Returns revoked and expired records too; callers judge validity. */
  async findByHash(keyHash: string): Promise<(ApiKeyRecord & { key_hash: string }) | undefined> {
    return this.db
      .selectFrom('api_keys')
      .select([...PUBLIC_COLUMNS, 'key_hash'])
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
  }

  /** Monotonic change counter of the key table. */
  async version(): Promise<bigint> {
    const row = await this.db.selectFrom('keys_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
    return BigInt(row.version);
  }
}

async function insertKey(db: Kysely<Database>, input: CreateKeyInput): Promise<IssuedKey> {
  if (!Number.isInteger(input.rps) || input.rps < 1) throw new Error('rps must be a positive integer');
  if (!Number.isInteger(input.burst) || input.burst < 1) throw new Error('burst must be a positive integer');
  if (input.network !== 'mainnet' && input.network !== 'testnet') throw new Error('network must be mainnet or testnet');
  for (const [name, value] of [
    ['streamConnections', input.streamConnections],
    ['streamAddresses', input.streamAddresses],
  ] as const) {
    if (value !== undefined && value !== null && (!Number.isInteger(value) || value < -1))
      throw new Error(`${name} must be an integer ≥ -1 (-1: no limit)`);
  }
  const key = generateKey();
  const record = await db
    .insertInto('api_keys')
    .values({
      key_hash: hashKey(key),
      key_prefix: key.slice(0, KEY_PREFIX.length + 6),
      network: input.network,
      rps: input.rps,
      burst: input.burst,
      stream_connections: input.streamConnections ?? null,
      stream_addresses: input.streamAddresses ?? null,
      label: input.label ?? '',
      expires_at: input.expiresAt ?? null,
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
  return { key, record };
}

async function bumpVersion(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('keys_version')
    .set({ version: sql<string>`version + 1` as unknown as string })
    .where('id', '=', 1)
    .execute();
}

/** True when the record may be used at `now`. */
export function isKeyActive(record: Pick<ApiKeyRecord, 'revoked_at' | 'expires_at'>, now = new Date()): boolean {
  if (record.revoked_at && record.revoked_at <= now) return false;
  if (record.expires_at && record.expires_at <= now) return false;
  return true;
}
