import { formatMessage, type WireMessageRow } from '@tongate/read-model';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, MessagesTable } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely, Selectable } from 'kysely';
import { tokenMetadata } from '@tongate/read-model';
import { addressBook } from '@tongate/read-model';
import { endpoint, page, storedHash, storedHashes, window } from '@tongate/read-model';

export type MessageOperations = Pick<V3Handlers, 'getMessages'>;

/** A message row with its body and init state BOCs (the indexer's read shape). */
export type MessageRow = WireMessageRow;

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
      if (query.exclude_externals && query.only_externals)
        throw new ApiError(422, 'exclude_externals and only_externals exclude each other');
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
        .where(
          'm.msg_hash',
          'in',
          picked.map((p) => p.msg_hash),
        )
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
