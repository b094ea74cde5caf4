import { detectWalletByCodeHash, readWalletData } from '@tongate/contracts';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import type { V3Handlers } from '@tongate/stubs';
import { Cell } from '@ton/core';
import type { Kysely } from 'kysely';
import { tokenMetadata } from '@tongate/read-model';
import { accountFacts, addressBook, bookEntry, interfacesOf } from '@tongate/read-model';
import { page, rawAddresses, rawAddressOfText } from '@tongate/read-model';

export type AccountOperations = Pick<V3Handlers, 'getAccountStates' | 'getWalletStates' | 'getAddressBook' | 'getTopAccountsByBalance'>;

const UNKNOWN_ENTRY: v3.AddressBookEntry = { user_friendly: null, domain: null, interfaces: [] };

function walletFields(codeHash: string | null, dataBoc: string | null) {
  const kind = codeHash ? detectWalletByCodeHash(Buffer.from(codeHash, 'base64')) : null;
  if (!kind) return { is_wallet: false, wallet_type: null, seqno: null, wallet_id: null, is_signature_allowed: null };
  let data = null;
  try {
    data = dataBoc ? readWalletData(kind, Cell.fromBase64(dataBoc)) : null;
  } catch {
    data = null;
  }
  return {
    is_wallet: true,
    wallet_type: kind.name,
    seqno: data?.seqno ?? null,
    wallet_id: data?.walletId ?? null,
    is_signature_allowed: data?.isSignatureAllowed ?? null,
  };
}

export function accountOperations(db: Kysely<ChainDatabase>, testnet: boolean): AccountOperations {
  const latest = (addresses: string[]) =>
    db.selectFrom('latest_account_states').selectAll().where('account', 'in', addresses).orderBy('account').execute();

  return {
    async getAccountStates({ query }) {
      const addresses = rawAddresses(query.address);
      const includeBoc = query.include_boc !== false;
      const rows = addresses.length > 0 ? await latest(addresses) : [];
      const accounts: v3.AccountStateFull[] = rows.map((r) => ({
        address: r.account,
        account_state_hash: r.hash,
        balance: r.balance,
        extra_currencies: r.extra_currencies,
        status: r.account_status as v3.AccountStatus,
        frozen_hash: r.frozen_hash,
        last_transaction_hash: r.last_trans_hash,
        last_transaction_lt: r.last_trans_lt,
        data_hash: r.data_hash,
        code_hash: r.code_hash,
        data_boc: includeBoc ? r.data_boc : null,
        code_boc: includeBoc ? r.code_boc : null,
        contract_methods: r.contract_methods,
        interfaces: interfacesOf(r),
      }));
      return {
        status: 200,
        body: { accounts, address_book: await addressBook(db, addresses, testnet), metadata: await tokenMetadata(db, addresses) },
      };
    },

    async getWalletStates({ query }) {
      const addresses = rawAddresses(query.address);
      const rows = addresses.length > 0 ? await latest(addresses) : [];
      const wallets: v3.WalletState[] = rows.map((r) => ({
        address: r.account,
        ...walletFields(r.code_hash, r.data_boc),
        balance: r.balance,
        extra_currencies: r.extra_currencies,
        status: r.account_status as v3.AccountStatus,
        code_hash: r.code_hash,
        last_transaction_hash: r.last_trans_hash,
        last_transaction_lt: r.last_trans_lt,
      }));
      return {
        status: 200,
        body: { wallets, address_book: await addressBook(db, addresses, testnet), metadata: await tokenMetadata(db, addresses) },
      };
    },

    async getAddressBook({ query }) {
      // Keyed by each address exactly as the client wrote it; one that does not parse gets an empty entry.
      const raws = new Map(query.address.map((text) => [text, rawAddressOfText(text)]));
      const facts = await accountFacts(db, [...new Set([...raws.values()].filter((r): r is string => r !== null))]);
      const book: v3.AddressBook = {};
      for (const [text, raw] of raws) book[text] = raw ? bookEntry(raw, facts.get(raw), testnet) : UNKNOWN_ENTRY;
      return { status: 200, body: book };
    },

    async getTopAccountsByBalance({ query }) {
      const { limit, offset } = page(query);
      const rows = await db
        .selectFrom('latest_account_states')
        .select(['account', 'balance'])
        .orderBy('balance', 'desc')
        .orderBy('account', 'asc')
        .limit(limit)
        .offset(offset)
        .execute();
      return { status: 200, body: rows.map((r) => ({ account: r.account, balance: r.balance })) };
    },
  };
}
