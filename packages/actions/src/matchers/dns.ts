import { decodeDnsRecord } from '@tongate/contracts';
import { type ActionDraft, type MatchContext, iface, nodeSet, opcodeMatcher } from '../core.js';
import { rawAddress, tryDecode } from '../decode.js';
import { DNS, OP } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue } from '../types.js';

/**
 * TON DNS items (TEP-81): change_dns_record#4eb1f0f9 query_id:uint64 key:uint256, then the new DNSRecord as a
 * reference when there is one (the item contract tests for a reference, there is no Maybe bit), sent by the owner.
 * With a value it sets a record, without one it deletes it; key 0 without a value only renews the domain. The
 * request is a resolver's standard message, so its opcode names it whatever the receiver (as the reference does);
 * a refused request's bounce belongs to it.
 */
const SCHEMAS: Record<string, string> = {
  smc_address: 'DNSSmcAddress',
  next_resolver: 'DNSNextResolver',
  adnl_address: 'DNSAdnlAddress',
  storage_address: 'DNSStorageAddress',
};

function recordData(value: NonNullable<ReturnType<typeof decodeDnsRecord>>): Record<string, DataValue> {
  const schema = SCHEMAS[value.type];
  if (value.type === 'smc_address' || value.type === 'next_resolver')
    return { value_schema: schema, value: rawAddress(value.address), flags: null };
  if (value.type === 'adnl_address') return { value_schema: schema, value: value.adnl, flags: 0 };
  return { value_schema: schema, value: value.bagId, flags: null };
}

function changeRecord(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const req = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    const key = s.loadUintBig(256);
    return { key, value: s.remainingRefs > 0 ? s.loadRef() : null };
  });
  if (!req) return null;
  const kinds = iface(ctx, node.account);
  const item = (kinds.NftItem ?? kinds.DnsItem) as { collection_address?: string } | undefined;
  const keyHex = req.key.toString(16).padStart(64, '0');
  const base = {
    source: normalizeAddress(node.inMsg?.source),
    destination: node.account,
    asset: normalizeAddress(item?.collection_address ?? null),
  };
  const success = !txFailed(node);
  const nodes = nodeSet(node, childWithOp(node, OP.BOUNCE));
  if (!req.value) {
    if (req.key === 0n) return { type: 'renew_dns', nodes, success, fields: base };
    return { type: 'delete_dns', nodes, success, fields: { ...base, change_dns_record_data: { key: keyHex } } };
  }
  const value = decodeDnsRecord(req.value);
  const data: Record<string, DataValue> = value ? recordData(value) : { value_schema: null, value: null, flags: null };
  return { type: 'change_dns', nodes, success, fields: { ...base, change_dns_record_data: { key: keyHex, ...data } } };
}

export const dnsMatcher = opcodeMatcher('dns', [[DNS.CHANGE_RECORD, changeRecord]]);
