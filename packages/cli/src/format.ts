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

export function keysTable(records: ApiKeyRecord[]): string {
  const header = ['id', 'prefix', 'network', 'rps', 'burst', 'label', 'created', 'expires', 'status'];
  const rows = records.map((r) => [
    String(r.id),
    `${r.key_prefix}…`,
    r.network,
    String(r.rps),
    String(r.burst),
    r.label,
    when(r.created_at),
    when(r.expires_at),
    keyStatus(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
