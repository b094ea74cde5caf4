import type { V3Handlers } from '@tongate/stubs';
import type { ChainDatabase } from '@tongate/store';
import type { Kysely } from 'kysely';
import { rawAddresses, tokenMetadata } from '@tongate/read-model';

/** `/metadata`: the read model's token metadata (tokenMetadata) of the addresses asked, jetton wallets included. */
export type MetadataOperations = Pick<V3Handlers, 'getMetadata'>;

export function metadataOperations(db: Kysely<ChainDatabase>): MetadataOperations {
  return {
    async getMetadata({ query }) {
      const addresses = rawAddresses(query.address);
      return { status: 200, body: await tokenMetadata(db, addresses, { wallets: true }) };
    },
  };
}
