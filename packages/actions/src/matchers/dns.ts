import { decodeDnsRecord } from '@tongate/contracts';
import { type ActionDraft, type MatchContext, iface, opcodeMatcher } from '../core.js';
import { rawAddress, tryDecode } from '../decode.js';
import { DNS } from '../opcodes.js';
import { bodySlice, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue } from '../types.js';

/**
 * TON DNS items (TEP-81): change_dns_record#4eb1f0f9 query_id key:uint256 value:(Maybe ^DNSRecord) sent by the
 * owner. With a value it sets a record, without one it deletes it; key 0 without a value only renews the domain.
 */
const SCHEMAS: Record<string, string> = {
  smc_address: 'DNSSmcAddress',
  next_resolver: 'DNSNextResolver',
  adnl_address: 'DNSAdnlAddress',
  storage_address: 'DNSStorageAddress',
};

function recordData(value: NonNullable<ReturnType<typeof decodeDnsRecord>>): Record<string, DataValue> {
  const schema = SCHEMAS[value.type];
  if (value.type === 'smc_address' || value.type === 'next_resolver') return { value_schema: schema, value: rawAddress(value.address), flags: null };
  if (value.type === 'adnl_address') return { value_schema: schema, value: value.adnl, flags: 0 };
  return { value_schema: schema, value: value.bagId, flags: null };
}

function changeRecord(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const req = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    const key = s.loadUintBig(256);
    return { key, value: s.loadMaybeRef() };
  });
  if (!req) return null;
  const item = iface(ctx, node.account).NftItem as { collection_address?: string } | undefined;
  const keyHex = req.key.toString(16).padStart(64, '0');
  const base = {
    source: normalizeAddress(node.inMsg?.source),
    destination: node.account,
    asset: normalizeAddress(item?.collection_address ?? null),
  };
  const success = !txFailed(node);
  if (!req.value) {
    if (req.key === 0n) return { type: 'renew_dns', nodes: [node], success, fields: base };
    return { type: 'delete_dns', nodes: [node], success, fields: { ...base, change_dns_record_data: { key: keyHex } } };
  }
  const value = decodeDnsRecord(req.value);
  const data: Record<string, DataValue> = value ? recordData(value) : { value_schema: null, value: null, flags: null };
  return { type: 'change_dns', nodes: [node], success, fields: { ...base, change_dns_record_data: { key: keyHex, ...data } } };
}

export const dnsMatcher = opcodeMatcher('dns', [[DNS.CHANGE_RECORD, changeRecord]]);
