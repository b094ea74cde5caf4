import type { AccountInterfaces } from '@tongate/actions';
import {
  codeMethodIds,
  STAKING_CODE_HASHES,
  decodeSingleNominatorData,
  isGenuineDnsItem,
  methodId,
  readNftSale,
  runGetMethod,
  type TrustedDnsCollection,
} from '@tongate/contracts';
import type { ChainDatabase } from '@tongate/store';
import { Address, Cell } from '@ton/core';
import type { Kysely } from 'kysely';
import { rawAddress } from './address.js';

/**
 * The interfaces the action classifier is given for the accounts of a trace (jetton wallets, NFT items, staking
 * pools, getgems sales and auctions, `.ton` DNS items), read from the accounts' code, data and get-methods. One
 * reading for both sides: the indexer classifying a complete trace and the API classifying an emulated one.
 */

const json = <T>(v: string | T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** What an account's latest state holds for this: the `latest_account_states` columns it reads. */
export interface CodeAndData {
  account: string;
  balance: string | bigint | number;
  code_hash: string | null;
  code_boc: string | null;
  data_boc: string | null;
  contract_methods: string | number[] | null;
}

const GET_WALLET_DATA = methodId('get_wallet_data');
const GET_NFT_DATA = methodId('get_nft_data');
/** Get-methods of the getgems sale and auction contracts (and the older `get_sale_data` form). */
export const SALE_METHOD_IDS = ['get_fix_price_data_v4', 'get_auction_data_v4', 'get_sale_data'].map(methodId);
const rawOf = (a: Address | null) => (a ? rawAddress(a) : null);

/**
 * What the code and get-methods tell about one account, in the classifier's interface shapes: jetton wallets and NFT
 * items by their TEP get-methods; the staking pools by code hash (the TON Foundation nominator pool, the
 * single-nominator pools); getgems sales and auctions by their get-methods; `.ton` DNS items only when they are the
 * network's collection's own (anyone can deploy the item code with made-up data).
 */
export async function accountInterfaces(state: CodeAndData, now: number, dns: TrustedDnsCollection | null): Promise<AccountInterfaces> {
  const out: AccountInterfaces = {};
  if (!state.code_boc || !state.data_boc) return out;
  const codeHash = state.code_hash ? Buffer.from(state.code_hash, 'base64') : Cell.fromBase64(state.code_boc).hash();
  const staking = STAKING_CODE_HASHES[codeHash.toString('hex')];
  if (staking === 'nominator_pool_v1') out.NominatorPool = { address: state.account };
  else if (staking) {
    try {
      const roles = decodeSingleNominatorData(Cell.fromBase64(state.data_boc));
      out.SingleNominatorPool = { address: state.account, version: staking, owner: rawOf(roles.owner), validator: rawOf(roles.validator) };
    } catch {
      /* data of another layout: not a pool this knows */
    }
  }
  if (dns && codeHash.equals(dns.itemCodeHash)) {
    const data = Cell.fromBase64(state.data_boc);
    if (isGenuineDnsItem({ address: Address.parseRaw(state.account), codeHash, data }, dns))
      out.DnsItem = { address: state.account, collection_address: rawOf(dns.address) };
  }
  if (!state.contract_methods) return out;
  const methods = new Set(json<number[]>(state.contract_methods));
  const hasSale = SALE_METHOD_IDS.some((id) => methods.has(id));
  if (!methods.has(GET_WALLET_DATA) && !methods.has(GET_NFT_DATA) && !hasSale) return out;
  const contract = {
    code: Cell.fromBase64(state.code_boc),
    data: Cell.fromBase64(state.data_boc),
    address: Address.parseRaw(state.account),
    balance: BigInt(state.balance),
  };
  // A contract whose get-method throws is simply not known as that interface.
  if (methods.has(GET_WALLET_DATA)) {
    try {
      const s = await runGetMethod(contract, 'get_wallet_data', [], { now });
      const balance = s.readBigNumber();
      const owner = rawOf(s.readAddressOpt());
      const jetton = rawOf(s.readAddressOpt());
      out.JettonWallet = { address: state.account, owner, jetton, balance: balance.toString() };
    } catch {
      /* not a jetton wallet */
    }
  }
  if (methods.has(GET_NFT_DATA)) {
    try {
      const s = await runGetMethod(contract, 'get_nft_data', [], { now });
      const init = s.readBoolean();
      const index = s.readBigNumber();
      const collection = rawOf(s.readAddressOpt());
      const owner = rawOf(s.readAddressOpt());
      out.NftItem = {
        address: state.account,
        index: index.toString(),
        collection_address: collection,
        owner_address: owner,
        init,
        content: null,
      };
    } catch {
      /* not an NFT item */
    }
  }
  if (hasSale) {
    try {
      const sale = await readNftSale(contract, { now });
      if (sale?.type === 'getgems_sale') {
        const s = sale.sale;
        out.NftSale = {
          address: state.account,
          nft_address: rawOf(s.nft),
          nft_owner_address: rawOf(s.nftOwner),
          marketplace_address: rawOf(s.marketplace),
          full_price: s.fullPrice.toString(),
          marketplace_fee_address: rawOf(s.marketplaceFeeAddress),
          marketplace_fee: s.marketplaceFee.toString(),
          royalty_address: rawOf(s.royaltyAddress),
          royalty_amount: s.royaltyAmount.toString(),
          is_complete: s.isComplete,
        };
      } else if (sale?.type === 'getgems_auction') {
        const a = sale.auction;
        out.NftAuction = {
          address: state.account,
          nft_addr: rawOf(a.nft),
          nft_owner: rawOf(a.nftOwner),
          mp_addr: rawOf(a.marketplace),
          last_bid: a.lastBid.toString(),
          last_member: rawOf(a.lastMember),
          mp_fee_addr: rawOf(a.mpFeeAddress),
          mp_fee_factor: a.mpFeeFactor.toString(),
          mp_fee_base: a.mpFeeBase.toString(),
          royalty_fee_addr: rawOf(a.royaltyFeeAddress),
          royalty_fee_base: a.royaltyFeeBase.toString(),
          max_bid: a.maxBid.toString(),
          min_bid: a.minBid.toString(),
          end: a.end,
          is_canceled: a.isCanceled,
        };
      }
    } catch {
      /* not a getgems sale or auction */
    }
  }
  return out;
}

/**
 * An account's code and data as a state the index has not stored gives them: an emulated trace's, after it ran (a
 * contract the trace deploys is known by what it will be, as the indexer will know it once the trace lands).
 */
export function unstoredCodeAndData(account: string, balance: bigint, code: Cell | null, data: Cell | null): CodeAndData {
  return {
    account,
    balance,
    code_hash: code ? code.hash().toString('base64') : null,
    code_boc: code ? code.toBoc().toString('base64') : null,
    data_boc: data ? data.toBoc().toString('base64') : null,
    contract_methods: code ? [...codeMethodIds(code)].sort((a, b) => a - b) : null,
  };
}

/** The latest stored states (code, data, get-methods) of these accounts; an account the index has not seen is absent. */
export async function storedCodeAndData(db: Kysely<ChainDatabase>, accounts: readonly string[]): Promise<Map<string, CodeAndData>> {
  const states = new Map<string, CodeAndData>();
  for (let i = 0; i < accounts.length; i += 1000) {
    const rows = await db
      .selectFrom('latest_account_states')
      .select(['account', 'balance', 'code_hash', 'code_boc', 'data_boc', 'contract_methods'])
      .where('account', 'in', accounts.slice(i, i + 1000))
      .execute();
    for (const r of rows) states.set(r.account, r as CodeAndData);
  }
  return states;
}

/** The interfaces of each of these states; accounts that show none are left out. */
export async function interfacesOfStates(
  states: ReadonlyMap<string, CodeAndData>,
  now: number,
  dns: TrustedDnsCollection | null,
): Promise<Map<string, AccountInterfaces>> {
  const out = new Map<string, AccountInterfaces>();
  for (const [account, state] of states) {
    const kinds = await accountInterfaces(state, now, dns);
    if (Object.keys(kinds).length > 0) out.set(account, kinds);
  }
  return out;
}

/** The NFT items the sales and auctions among these hold: a bid or a listing names its item by them. */
export function heldItems(interfaces: ReadonlyMap<string, AccountInterfaces>): string[] {
  const held = new Set<string>();
  for (const kinds of interfaces.values()) {
    const nft = (kinds.NftAuction?.nft_addr ?? kinds.NftSale?.nft_address) as string | null | undefined;
    if (nft && !interfaces.has(nft)) held.add(nft);
  }
  return [...held];
}

/** Every account a trace's transactions touch: the accounts themselves and their messages' ends. */
export function traceAccounts(
  transactions: readonly { account: string; messages: readonly { source: string | null; destination: string | null }[] }[],
): string[] {
  const all = transactions.flatMap((t) => [t.account, ...t.messages.flatMap((m) => [m.source, m.destination])]);
  return [...new Set(all)].filter((a): a is string => a !== null);
}

/** The interfaces of one trace's accounts, with the NFT items its sales and auctions hold (a bid names its item by them). */
export function interfacesOfTrace(
  accounts: readonly string[],
  interfaces: ReadonlyMap<string, AccountInterfaces>,
): Record<string, AccountInterfaces> {
  const involved = new Set<string>(accounts);
  for (const a of accounts) {
    const kinds = interfaces.get(a);
    const nft = (kinds?.NftAuction?.nft_addr ?? kinds?.NftSale?.nft_address) as string | null | undefined;
    if (nft) involved.add(nft);
  }
  return Object.fromEntries([...interfaces].filter(([a]) => involved.has(a)));
}

/**
 * The interfaces a trace is classified with, from the index's latest states: its accounts' own, then those of the
 * items their sales and auctions hold. `states` given for some accounts (an emulated trace's states after it ran)
 * stand in for the stored ones.
 */
export async function readTraceInterfaces(
  db: Kysely<ChainDatabase>,
  accounts: readonly string[],
  now: number,
  dns: TrustedDnsCollection | null = null,
  states: ReadonlyMap<string, CodeAndData> = new Map(),
): Promise<Record<string, AccountInterfaces>> {
  const known = await storedCodeAndData(
    db,
    accounts.filter((a) => !states.has(a)),
  );
  for (const [a, state] of states) if (accounts.includes(a)) known.set(a, state);
  const interfaces = await interfacesOfStates(known, now, dns);
  const held = heldItems(interfaces);
  if (held.length > 0) {
    for (const [a, kinds] of await interfacesOfStates(await storedCodeAndData(db, held), now, dns)) interfaces.set(a, kinds);
  }
  return interfacesOfTrace(accounts, interfaces);
}
