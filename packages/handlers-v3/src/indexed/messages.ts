import { textCommentBytes } from '@tongate/chain';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, MessagesTable } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { decodeOpcode } from '@tongate/tlb';
import { Cell } from '@ton/core';
import type { Kysely, Selectable } from 'kysely';
import { tokenMetadata } from './metadata.js';
import { addressBook } from './address-book.js';
import { endpoint, page, storedHash, storedHashes, window } from './params.js';

export type MessageOperations = Pick<V3Handlers, 'getMessages'>;

export type MessageRow = Selectable<MessagesTable> & { body: string | null; init_state: string | null };

/** Text comments decode to the shape toncenter keeps for compatibility; other bodies have no decoder yet. */
function decodeBody(boc: string | null): v3.DecodedContent | null {
  if (!boc) return null;
  try {
    const text = textCommentBytes(Cell.fromBase64(boc));
    return text ? { type: 'text_comment', '@type': 'text_comment', comment: text.toString('utf-8') } : null;
  } catch {
    return null;
  }
}

const opcodeHex = (op: number | null) => (op === null ? null : `0x${(op >>> 0).toString(16).padStart(8, '0')}`);

export function formatMessage(row: MessageRow): v3.Message {
  return {
    hash: row.msg_hash,
    ...(row.msg_hash_norm ? { hash_norm: row.msg_hash_norm } : {}),
    source: row.source,
    destination: row.destination,
    value: row.value,
    value_extra_currencies: row.value_extra_currencies,
    fwd_fee: row.fwd_fee,
    ihr_fee: row.ihr_fee,
    extra_flags: row.extra_flags,
    import_fee: row.import_fee,
    created_lt: row.created_lt,
    created_at: row.created_at,
    opcode: opcodeHex(row.opcode),
    // the stored opcode is signed; scheme tags are unsigned
    decoded_opcode: row.opcode === null ? null : decodeOpcode(row.opcode >>> 0),
    ihr_disabled: row.ihr_disabled,
    bounce: row.bounce,
    bounced: row.bounced,
    message_content: { hash: row.body_hash, body: row.body, decoded: row.opcode === 0 ? decodeBody(row.body) : null },
    init_state: row.init_state_hash ? { hash: row.init_state_hash, body: row.init_state, decoded: null } : null,
  };
}

/** Message rows with their body and init state BOCs. */
export function messagesWithContents(db: Kysely<ChainDatabase>) {
  return db
    .selectFrom('messages as m')
    .leftJoin('message_contents as body', 'body.hash', 'm.body_hash')
    .leftJoin('message_contents as init', 'init.hash', 'm.init_state_hash')
    .selectAll('m')
    .select(['body.body as body', 'init.body as init_state']);
}

export function messageOperations(db: Kysely<ChainDatabase>, testnet: boolean): MessageOperations {
  return {
    async getMessages({ query }) {
      const { limit, offset, sort } = page(query);
      if (query.exclude_externals && query.only_externals) throw new ApiError(422, 'exclude_externals and only_externals exclude each other');
      const hashes = storedHashes(query.msg_hash);
      const bodyHash = storedHash(query.body_hash);
      const source = endpoint(query.source);
      const destination = endpoint(query.destination);
      const opcode = query.opcode;
      const { startLt, endLt, startUtime, endUtime, byTime } = window(query);
      const orderKey = byTime ? 'order_utime' : 'order_lt';

      // One entry per message (an internal message has an out row and an in row): distinct on the order key.
      let q = db.selectFrom('messages').select(['msg_hash', 'order_lt', 'order_utime']).distinct();
      if (hashes.length > 0) q = q.where((eb) => eb.or([eb('msg_hash', 'in', hashes), eb('msg_hash_norm', 'in', hashes)]));
      if (bodyHash) q = q.where('body_hash', '=', bodyHash);
      if (source !== undefined) q = q.where('source', source === null ? 'is' : '=', source);
      if (destination !== undefined) q = q.where('destination', destination === null ? 'is' : '=', destination);
      if (opcode !== undefined) q = q.where('opcode', '=', opcode);
      if (query.direction) q = q.where('direction', '=', query.direction);
      if (query.exclude_externals) q = q.where('source', 'is not', null).where('destination', 'is not', null);
      if (query.only_externals) q = q.where((eb) => eb.or([eb('source', 'is', null), eb('destination', 'is', null)]));
      if (startUtime !== undefined) q = q.where('order_utime', '>=', String(startUtime));
      if (endUtime !== undefined) q = q.where('order_utime', '<=', String(endUtime));
      if (startLt !== undefined) q = q.where('order_lt', '>=', startLt);
      if (endLt !== undefined) q = q.where('order_lt', '<=', endLt);
      const picked = await q.orderBy(orderKey, sort).orderBy('msg_hash', sort).limit(limit).offset(offset).execute();
      if (picked.length === 0) return { status: 200, body: { messages: [], address_book: {}, metadata: {} } };

      const rows = await messagesWithContents(db)
        .where('m.msg_hash', 'in', picked.map((p) => p.msg_hash))
        .execute();
      const byHash = new Map<string, { message?: MessageRow; in?: string; out?: string }>();
      for (const row of rows) {
        const entry = byHash.get(row.msg_hash) ?? {};
        entry.message ??= row;
        entry[row.direction] ??= row.tx_hash;
        byHash.set(row.msg_hash, entry);
      }
      const messages = picked.map((p) => {
        const entry = byHash.get(p.msg_hash)!;
        return { ...formatMessage(entry.message!), in_msg_tx_hash: entry.in ?? null, out_msg_tx_hash: entry.out ?? null };
      });
      const addresses = messages.flatMap((m) => [m.source, m.destination]);
      const [book, metadata] = await Promise.all([addressBook(db, addresses, testnet), tokenMetadata(db, addresses)]);
      return { status: 200, body: { messages, address_book: book, metadata } };
    },
  };
}
