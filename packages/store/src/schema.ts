import type { ColumnType, Generated } from 'kysely';

export type NetworkName = 'mainnet' | 'testnet';

export interface ApiKeysTable {
  id: Generated<number>;
  /** sha256 (hex) of the whole key; the key itself is never stored. */
  key_hash: string;
  /** The first characters of the key, shown by `keys list` so an operator can tell keys apart. */
  key_prefix: string;
  network: NetworkName;
  rps: number;
  burst: number;
  label: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * The key's Streaming API plan: concurrent streams, and addresses per stream. null = the deployment's default
   * (TONGATE_STREAM_KEY_CONNECTIONS / _ADDRESSES); -1 = no limit; 0 streams = no streaming for this key.
   */
  stream_connections: ColumnType<number | null, number | null | undefined, number | null>;
  stream_addresses: ColumnType<number | null, number | null | undefined, number | null>;
  /** Set on a rotated key: the id of the key that replaced it. */
  replaced_by: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One row; `version` grows on every change to api_keys so that processes can drop their caches. */
export interface KeysVersionTable {
  id: number;
  version: ColumnType<string, string | number, string | number>;
}

export interface Database {
  api_keys: ApiKeysTable;
  keys_version: KeysVersionTable;
}
