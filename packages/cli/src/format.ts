import type { ApiKeyRecord } from '@tongate/store';

function when(d: Date | null): string {
  return d ? d.toISOString().replace('.000Z', 'Z') : '-';
}

export function keyStatus(r: ApiKeyRecord, now = new Date()): string {
  if (r.revoked_at && r.revoked_at <= now) return 'revoked';
  if (r.expires_at && r.expires_at <= now) return 'expired';
  if (r.replaced_by) return `rotated → #${r.replaced_by}, valid until ${when(r.expires_at)}`;
  return 'active';
}

/** A key's streaming plan as `connections/addresses per stream`, `default` where the deployment's limit applies. */
export function streamPlanText(r: Pick<ApiKeyRecord, 'stream_connections' | 'stream_addresses'>): string {
  const one = (v: number | null) => (v === null ? 'default' : v === -1 ? 'unlimited' : String(v));
  return `${one(r.stream_connections)}/${one(r.stream_addresses)}`;
}

export function keysTable(records: ApiKeyRecord[]): string {
  const header = ['id', 'prefix', 'network', 'rps', 'burst', 'streams', 'label', 'created', 'expires', 'status'];
  const rows = records.map((r) => [
    String(r.id),
    `${r.key_prefix}…`,
    r.network,
    String(r.rps),
    String(r.burst),
    streamPlanText(r),
    r.label,
    when(r.created_at),
    when(r.expires_at),
    keyStatus(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
