import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { sql, type Kysely } from 'kysely';
import { addressBook } from '@tongate/read-model';
import { page, rawAddress } from '@tongate/read-model';

export type DnsOperations = Pick<V3Handlers, 'getDnsRecords'>;

/** `.ton` DNS records from `dns_entries` (the indexer's dns derivation), by wallet record or by domain. */
export function dnsOperations(db: Kysely<ChainDatabase>, testnet: boolean): DnsOperations {
  return {
    async getDnsRecords({ query }) {
      const { limit, offset } = page(query);
      const wallet = query.wallet !== undefined ? rawAddress(query.wallet) : undefined;
      const domain = query.domain;
      if ((wallet === undefined) === (domain === undefined)) throw new ApiError(422, 'exactly one of wallet, domain must be given');
      let q = db.selectFrom('dns_entries').selectAll();
      q = wallet !== undefined ? q.where('dns_wallet', '=', wallet) : q.where('domain', '=', domain!);
      const rows = await q
        .orderBy(sql`length(domain)`)
        .orderBy('domain')
        .orderBy('nft_item_address')
        .limit(limit)
        .offset(offset)
        .execute();
      const records: v3.DnsRecord[] = rows.map((r) => ({
        nft_item_address: r.nft_item_address,
        nft_item_owner: r.nft_item_owner,
        domain: r.domain,
        dns_next_resolver: r.dns_next_resolver,
        dns_wallet: r.dns_wallet,
        dns_site_adnl: r.dns_site_adnl,
        dns_storage_bag_id: r.dns_storage_bag_id,
      }));
      const addresses = rows.flatMap((r) => [r.nft_item_address, r.nft_item_owner, r.dns_wallet, r.dns_next_resolver]);
      return { status: 200, body: { records, address_book: await addressBook(db, addresses, testnet) } };
    },
  };
}
