import type { Cell } from '@ton/core';
import { type ActionDraft, opcodeMatcher, type MatchContext, jettonOfWallet, nodeSet } from '../core.js';
import { tryDecode } from '../decode.js';
import { LAYERZERO as LZ, OP } from '../opcodes.js';
import { bodyCell, childChain, childWithOp, descendants, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { DataValue } from '../types.js';
import { decodeJettonNotify } from './jettons.js';

/**
 * LayerZero v2 on TON. Its contracts pass "classlib" objects: cells that start with a fixed header (type info
 * plus filler ones) followed by fields at fixed places. The matchers find the packet (path, message, nonce,
 * guid) and the lzSend descriptor (request id, msglib, fees) by those headers wherever they sit in a body.
 */
const PACKET_HEADER = 417359019239977417716476838698419835n; // lz::Packet, 152 bits
const PATH_HEADER = 8903714975572488637007080065659n; // lz::Path, 152 bits
const LZ_SEND_NAME = BigInt(`0x${Buffer.from('lzSend').toString('hex')}`); // md::LzSend name, 80 bits
const HEADER_BITS = 350; // header info + filler ones, for every object here

const hex = (v: bigint) => `0x${v.toString(16)}`;

function* cellsBelow(cell: Cell, depth = 4): Generator<Cell> {
  yield cell;
  if (depth > 0) for (const r of cell.refs) yield* cellsBelow(r, depth - 1);
}

function startsWith(cell: Cell, value: bigint, bits: number): boolean {
  return cell.bits.length >= bits && tryDecode(() => cell.beginParse().loadUintBig(bits)) === value;
}

function readPacket(cell: Cell): Record<string, DataValue> | null {
  return tryDecode(() => {
    const s = cell.beginParse();
    s.skip(HEADER_BITS);
    const pathCell = s.loadRef();
    if (!startsWith(pathCell, PATH_HEADER, 152)) return null;
    const path = pathCell.beginParse();
    path.skip(HEADER_BITS);
    const src_eid = path.loadUint(32);
    const src_oapp = hex(path.loadUintBig(256));
    const dst_eid = path.loadUint(32);
    const dst_oapp = hex(path.loadUintBig(256));
    const messageCell = s.loadRef();
    const message = `0x${messageCell
      .beginParse()
      .loadBuffer(Math.floor(messageCell.bits.length / 8))
      .toString('hex')}`;
    return { src_oapp, dst_oapp, src_eid, dst_eid, nonce: Number(s.loadUintBig(64)), guid: hex(s.loadUintBig(256)), message };
  });
}

function findPacket(body: Cell | null): Record<string, DataValue> | null {
  if (!body) return null;
  for (const c of cellsBelow(body)) if (startsWith(c, PACKET_HEADER, 152)) return readPacket(c);
  return null;
}

function findLzSend(body: Cell | null): { send: Record<string, DataValue>; packet: Record<string, DataValue> | null } | null {
  if (!body) return null;
  for (const c of cellsBelow(body)) {
    if (!startsWith(c, LZ_SEND_NAME, 80)) continue;
    return tryDecode(() => {
      const s = c.beginParse();
      s.skip(HEADER_BITS);
      const send_request_id = Number(s.loadUintBig(64));
      const msglib_manager = hex(s.loadUintBig(256));
      const msglib = hex(s.loadUintBig(256));
      const packet = readPacket(s.loadRef());
      s.loadRef(); // extra options
      const fees = s.loadRef().beginParse();
      fees.skip(256);
      const native_fee = Number(fees.loadUintBig(128));
      const zro_fee = Number(fees.loadUintBig(128));
      return { send: { send_request_id, msglib_manager, msglib, native_fee, zro_fee }, packet };
    });
  }
  return null;
}

const dest = (n: TraceNode | undefined) => n?.account ?? null;

/** A LayerZero flow succeeded when no step failed; the event sink may refuse the events it is sent. */
const succeeded = (nodes: TraceNode[]) => !nodes.some((n) => txFailed(n) && n.op !== LZ.EVENT);

function send(ctx: MatchContext, endpointSend: TraceNode): ActionDraft | null {
  const [channelSend, , ulnSend, , oappCallback] = childChain(
    endpointSend,
    LZ.CHANNEL_SEND,
    LZ.MSGLIB_CONNECTION_SEND,
    LZ.ULN_SEND,
    LZ.MSGLIB_SEND_CALLBACK,
    LZ.CHANNEL_SEND_CALLBACK,
  );
  const lzSend = findLzSend(bodyCell(oappCallback?.inMsg));
  if (!oappCallback || !lzSend) return null;
  const sendData = { ...lzSend.send, endpoint: dest(endpointSend), channel: dest(channelSend), uln: dest(ulnSend) };
  const nodes = subtree(endpointSend);
  const base: ActionDraft = {
    type: 'layerzero_send',
    nodes,
    success: succeeded(nodes),
    fields: {
      source: normalizeAddress(endpointSend.inMsg?.source),
      layerzero_send_data: sendData,
      layerzero_packet_data: lzSend.packet,
    },
  };
  // tokens bridged: the OApp received jettons and sent the packet in the same step
  const notify = endpointSend.parent?.op === OP.JETTON_NOTIFY ? endpointSend.parent : null;
  const note = notify && decodeJettonNotify(notify);
  const internal = notify?.parent;
  const transfer = internal?.parent;
  if (!notify || !note || !internal || transfer?.op !== OP.JETTON_TRANSFER) return base;
  const all = nodeSet(transfer, ...subtree(internal), ...nodes);
  return {
    type: 'layerzero_send_tokens',
    nodes: all,
    success: base.success && !txFailed(internal),
    fields: {
      source: note.sender,
      source_secondary: transfer.account,
      destination: notify.account,
      destination_secondary: internal.account,
      asset: jettonOfWallet(ctx, transfer.account) ?? jettonOfWallet(ctx, internal.account),
      amount: note.amount,
      layerzero_send_data: sendData,
      layerzero_packet_data: lzSend.packet,
    },
    children: [base],
  };
}

function commitPacket(ulnCommit: TraceNode): ActionDraft | null {
  const [connection, endpoint, channel, callback] = childChain(
    ulnCommit,
    LZ.ULN_CONNECTION_COMMIT_PACKET,
    LZ.ENDPOINT_COMMIT_PACKET,
    LZ.CHANNEL_COMMIT_PACKET,
    LZ.MSGLIB_CONNECTION_COMMIT_PACKET_CALLBACK,
  );
  const packet = findPacket(bodyCell(channel?.inMsg));
  if (!connection || !endpoint || !channel || !callback || !packet) return null;
  const nodes = subtree(ulnCommit);
  return {
    type: 'layerzero_commit_packet',
    nodes,
    success: succeeded(nodes),
    fields: {
      source: normalizeAddress(ulnCommit.inMsg?.source),
      source_secondary: endpoint.account,
      destination: connection.account,
      destination_secondary: connection.account,
      asset: channel.account,
      asset_secondary: callback.account,
      layerzero_packet_data: packet,
    },
  };
}

/** lzReceivePrepare at the channel → the OApp → lock at the channel → execute at the OApp (carries the packet). */
function receive(prepare: TraceNode): ActionDraft | null {
  const lock = [...descendants(prepare)].find((n) => n.op === LZ.LZ_RECEIVE_LOCK && n.account === prepare.account);
  const execute = lock?.children.find((c) => c.account !== prepare.account && c.op !== LZ.EVENT);
  const packet = findPacket(bodyCell(execute?.inMsg));
  if (!lock || !execute || !packet) return null;
  const nodes = subtree(prepare).filter((n) => n.op !== OP.JETTON_TRANSFER || n.parent !== execute);
  return {
    type: 'layerzero_receive',
    nodes: nodeSet(...nodes),
    success: succeeded(nodes),
    fields: {
      source: normalizeAddress(prepare.inMsg?.source),
      destination: execute.account,
      destination_secondary: prepare.account,
      layerzero_packet_data: packet,
    },
  };
}

/** md::VerificationStatus: the header every classlib object carries, then `nonce:uint64 status:uint32`. */
const VERIFICATION_STATUS_HEADER = 38421788582694199859296615363593851n; // 116 bits
const VERIFY_STATUS = new Map<number, string>([
  [0x3bbc306b, 'succeeded'],
  [0x7fcbb4ac, 'nonce_out_of_range'],
  [0x29c53fab, 'dvn_not_configured'],
]);

/**
 * The ULN connection's verify callback: its message data (the body's reference, an md::MdObj) holds the
 * md::VerificationStatus as its first reference.
 */
function readVerificationStatus(body: Cell | null): { nonce: number; status: string } | null {
  return tryDecode(() => {
    const status = body?.refs[0]?.refs[0];
    if (!status || !startsWith(status, VERIFICATION_STATUS_HEADER, 116)) return null;
    const s = status.beginParse();
    s.skip(HEADER_BITS);
    const nonce = Number(s.loadUintBig(64));
    const code = s.loadUint(32);
    return { nonce, status: VERIFY_STATUS.get(code) ?? `unknown_${code}` };
  });
}

/**
 * A DVN's verification of a packet: verify at the DVN → its proxy's call → ULN verify → ULN connection verify,
 * which answers with the verification callback (nonce and status). Each step is read at the contract the
 * previous one addressed; without the callback the chain shows no verification.
 */
function dvnVerify(dvnCall: TraceNode): ActionDraft | null {
  const [proxyCall, ulnVerify, connectionVerify, callback] = childChain(
    dvnCall,
    LZ.PROXY_CALL_CONTRACT,
    LZ.ULN_VERIFY,
    LZ.ULN_CONNECTION_VERIFY,
    LZ.ULN_CONNECTION_VERIFY_CALLBACK,
  );
  const verification = readVerificationStatus(bodyCell(callback?.inMsg));
  if (!proxyCall || !ulnVerify || !connectionVerify || !callback || !verification) return null;
  const nodes = nodeSet(
    dvnCall,
    proxyCall,
    ulnVerify,
    connectionVerify,
    childWithOp(connectionVerify, LZ.EVENT),
    callback,
    // the excesses the callback returns
    callback.children.find((c) => c.op === null || c.op === 0),
  );
  return {
    type: 'layerzero_dvn_verify',
    nodes,
    success: succeeded(nodes),
    fields: {
      source: normalizeAddress(dvnCall.inMsg?.source),
      layerzero_dvn_verify_data: {
        ...verification,
        dvn: dvnCall.account,
        proxy: proxyCall.account,
        uln: ulnVerify.account,
        uln_connection: connectionVerify.account,
      },
    },
  };
}

export const layerzeroMatcher = opcodeMatcher('layerzero', [
  [LZ.DVN_VERIFY, (_ctx, node) => dvnVerify(node)],
  [LZ.ENDPOINT_SEND, send],
  [LZ.ULN_COMMIT_PACKET, (_ctx, node) => commitPacket(node)],
  [LZ.LZ_RECEIVE_PREPARE, (_ctx, node) => receive(node)],
]);
