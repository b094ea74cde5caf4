import { decodeJettonBurn, decodeJettonTransfer, decodeNftTransferBody } from '@tongate/actions';
import {
  GetMethodError,
  methodId,
  nftItemContent,
  nftSaleSeller,
  readJettonMaster,
  readJettonWallet,
  readNftCollection,
  readNftItem,
  runGetMethodItems,
  TOKEN_GET_METHODS,
  tokenContentJson,
  verifyJettonWallet,
  verifyNftItem,
  type TokenGetMethods,
  type TokenKind,
} from '@tongate/contracts';
import { Address, Cell } from '@ton/core';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { rawAddress } from '../../address.js';
import { activeMethodIds, type BlockDerivation, type DerivationContext, type McBlockBatch } from '../../block.js';
import type { IndexTables } from '../../index-domain.js';
import { SALE_METHOD_IDS } from '../../interfaces.js';
import type { LatestAccountStateRow, MessageRow, TransactionRow } from '../../rows.js';
import type {
  JettonBurnsTable,
  JettonMastersTable,
  JettonTransfersTable,
  JettonWalletsTable,
  NftCollectionsTable,
  NftItemsTable,
  NftTransfersTable,
  TokenTables,
} from './tables.js';

/** The chain tables with the tokens domain's own. */
type TokensDb = IndexTables<TokenTables>;

/**
 * Jettons and NFTs of each block. `prepare` reads every account the block touched through the token get-methods
 * (run locally on the indexed code and data; through the chain backend for library code, whose cells are not in
 * the state), verifies jetton wallets and NFT items against their master / collection, and turns the transfer and
 * burn requests the block's token contracts received into rows. `write` upserts the contracts' current state and
 * inserts the events, in the block's transaction.
 */

export interface TokenRows {
  jettonMasters: Insertable<JettonMastersTable>[];
  jettonWallets: Insertable<JettonWalletsTable>[];
  nftCollections: Insertable<NftCollectionsTable>[];
  nftItems: Insertable<NftItemsTable>[];
  jettonTransfers: Insertable<JettonTransfersTable>[];
  jettonBurns: Insertable<JettonBurnsTable>[];
  nftTransfers: Insertable<NftTransfersTable>[];
  /**
   * Sellers of indexed items whose sale or auction contract is indexed only now: the item moved to the contract in
   * an earlier block (the contract's deploy message reached another shard a block later than the transfer).
   */
  realOwners: { address: string; real_owner: string }[];
  /** Where the look through accounts indexed before this derivation existed got to; null once it is done. */
  backfill: { cursor: string; done: boolean } | null;
}

const OP = { jettonTransfer: 0x0f8a7ea5, jettonBurn: 0x595f07bc, nftTransfer: 0x5fcc3d14 } as const;
const KINDS = Object.keys(TOKEN_GET_METHODS) as TokenKind[];
const KIND_METHOD_IDS = Object.fromEntries(KINDS.map((k) => [k, TOKEN_GET_METHODS[k].map(methodId)])) as Record<TokenKind, number[]>;
/** Rows per INSERT statement (PostgreSQL allows 65535 parameters per statement). */
const CHUNK = 500;
/**
 * Gas of one token get-method: the standard ones take a few thousand; anyone can deploy a contract answering them,
 * and one that burns gas must not slow the indexer down.
 */
const TOKEN_GAS_LIMIT = 1_000_000n;
/** Accounts indexed before the tokens derivation existed, looked at per block until all were. */
const BACKFILL_PAGE = 100;
/** Library code hashes whose token kinds were probed (see kindsOf). */
const PROBED_CODES_MAX = 10_000;

const raw = (a: Address) => rawAddress(a);
const parseRaw = (r: string) => Address.parseRaw(r);
const b64Hash = (c: Cell) => c.hash().toString('base64');

interface ContractState {
  code: Cell | null;
  data: Cell | null;
  balance: bigint;
}

function methodIdsOf(row: LatestAccountStateRow): Set<number> {
  const ids =
    typeof row.contract_methods === 'string'
      ? (JSON.parse(row.contract_methods) as number[] | null)
      : (row.contract_methods as number[] | null | undefined);
  return new Set(ids ?? []);
}

export function tokensDerivation(): BlockDerivation<TokenRows, TokensDb> {
  /** Token kinds that answered for each library code (its method ids are not visible to codeMethodIds). */
  const probedCodes = new Map<string, TokenKind[]>();

  async function prepare(batch: McBlockBatch, db: Kysely<TokensDb>, ctx: DerivationContext): Promise<TokenRows> {
    const inBatch = new Map<string, LatestAccountStateRow>(batch.latestAccountStates.map((s) => [s.account, s]));
    const states = new Map<string, Promise<ContractState | null>>();
    const stateOf = (address: string) => {
      let s = states.get(address);
      if (!s) states.set(address, (s = loadState(address)));
      return s;
    };
    const indexed = new Map<string, Promise<ContractState | null>>();
    /** An account's state as of this block, from the block or the index; null when the index has not seen it. */
    const indexedStateOf = (address: string) => {
      let s = indexed.get(address);
      if (!s) indexed.set(address, (s = loadIndexedState(address)));
      return s;
    };
    async function loadIndexedState(address: string): Promise<ContractState | null> {
      const row =
        inBatch.get(address) ??
        (await db
          .selectFrom('latest_account_states')
          .select(['code_boc', 'data_boc', 'balance'])
          .where('account', '=', address)
          .executeTakeFirst());
      return row
        ? {
            code: row.code_boc ? Cell.fromBase64(row.code_boc) : null,
            data: row.data_boc ? Cell.fromBase64(row.data_boc) : null,
            balance: BigInt(row.balance),
          }
        : null;
    }
    async function loadState(address: string): Promise<ContractState | null> {
      const state = await indexedStateOf(address);
      if (state) return state;
      // A master or collection the index has not seen (indexing started after its last change): read it from the chain.
      const chainState = await ctx.chain.getAccountState(parseRaw(address), batch.mcSeqno);
      return { code: chainState.code, data: chainState.data, balance: chainState.balance };
    }
    /** The seller, while the item's owner is a sale or auction contract holding it (sales are deployed, so indexed, first). */
    async function sellerOf(item: Address, owner: Address | null): Promise<string | null> {
      const state = owner && (await indexedStateOf(raw(owner)));
      if (!owner || !state?.code || !state.data || state.code.isExotic) return null;
      const seller = await nftSaleSeller({ code: state.code, data: state.data, address: owner, balance: state.balance }, item, {
        now: batch.genUtime,
        gasLimit: TOKEN_GAS_LIMIT,
      });
      return seller ? raw(seller) : null;
    }

    const run: TokenGetMethods = async (address, method, args) => {
      const state = await stateOf(raw(address));
      if (!state?.code || !state.data) return null;
      if (state.code.isExotic) {
        const result = await ctx.chain.runGetMethod(address, method, args, batch.mcSeqno);
        return result.exitCode === 0 || result.exitCode === 1 ? result.stack : null;
      }
      try {
        return await runGetMethodItems({ code: state.code, data: state.data, address, balance: state.balance }, method, args, {
          now: batch.genUtime,
          gasLimit: TOKEN_GAS_LIMIT,
        });
      } catch (e) {
        if (e instanceof GetMethodError) return null;
        throw e;
      }
    };

    const backfill = await backfillPage(db, inBatch);
    const rows: TokenRows = {
      jettonMasters: [],
      jettonWallets: [],
      nftCollections: [],
      nftItems: [],
      jettonTransfers: [],
      jettonBurns: [],
      nftTransfers: [],
      realOwners: [],
      backfill: backfill.next,
    };
    const candidates = [...batch.latestAccountStates, ...backfill.states].filter(
      (s) => s.account_status === 'active' && s.code_boc && s.data_boc,
    );
    const addresses = candidates.map((s) => s.account);
    const [knownWallets, knownItems] =
      addresses.length === 0
        ? [[], []]
        : await Promise.all([
            db.selectFrom('jetton_wallets').select(['address', 'owner', 'jetton']).where('address', 'in', addresses).execute(),
            db.selectFrom('nft_items').select(['address', 'collection_address', 'index']).where('address', 'in', addresses).execute(),
          ]);
    const verifiedWallets = new Map(knownWallets.map((w) => [w.address, `${w.owner}/${w.jetton}`]));
    const verifiedItems = new Map(knownItems.map((i) => [i.address, `${i.collection_address}/${i.index}`]));

    for (const state of candidates) {
      const address = parseRaw(state.account);
      const common = { last_transaction_lt: state.last_trans_lt ?? 0, code_hash: state.code_hash!, data_hash: state.data_hash! };
      for (const kind of await kindsOf(state, address, run)) {
        if (kind === 'jettonMaster') {
          const m = await readJettonMaster(run, address);
          if (!m) continue;
          rows.jettonMasters.push({
            address: state.account,
            total_supply: m.totalSupply,
            mintable: m.mintable,
            admin_address: m.admin ? raw(m.admin) : null,
            jetton_content: JSON.stringify(tokenContentJson(m.content)),
            jetton_wallet_code_hash: b64Hash(m.walletCode),
            ...common,
          });
        } else if (kind === 'jettonWallet') {
          const w = await readJettonWallet(run, address);
          if (!w) continue;
          const key = `${raw(w.owner)}/${raw(w.jetton)}`;
          if (verifiedWallets.get(state.account) !== key && !(await verifyJettonWallet(run, address, w))) continue;
          verifiedWallets.set(state.account, key);
          rows.jettonWallets.push({ address: state.account, balance: w.balance, owner: raw(w.owner), jetton: raw(w.jetton), ...common });
        } else if (kind === 'nftCollection') {
          const c = await readNftCollection(run, address);
          if (!c) continue;
          rows.nftCollections.push({
            address: state.account,
            next_item_index: c.nextItemIndex,
            owner_address: c.owner ? raw(c.owner) : null,
            collection_content: JSON.stringify(tokenContentJson(c.content)),
            ...common,
          });
        } else {
          const item = await readNftItem(run, address);
          if (!item) continue;
          const collection = item.collection ? raw(item.collection) : null;
          const key = `${collection}/${item.index}`;
          if (verifiedItems.get(state.account) !== key && !(await verifyNftItem(run, address, item))) continue;
          verifiedItems.set(state.account, key);
          const content = await nftItemContent(run, item);
          rows.nftItems.push({
            address: state.account,
            init: item.init,
            index: item.index,
            collection_address: collection,
            owner_address: item.owner ? raw(item.owner) : null,
            content: JSON.stringify(content ? tokenContentJson(content) : null),
            real_owner: await sellerOf(address, item.owner),
            ...common,
          });
        }
      }
    }

    // Items without a seller yet, held by a sale or auction contract (by its get-methods) this block changed: the item
    // reached the contract before the contract knew its seller (ownership_assigned comes a block later from another
    // shard), so the item's own row was written without one.
    const written = new Set(rows.nftItems.map((i) => i.address));
    const changed = batch.latestAccountStates
      .filter((s) => {
        const ids = activeMethodIds(s);
        return SALE_METHOD_IDS.some((id) => ids.has(id));
      })
      .map((s) => s.account);
    for (let i = 0; i < changed.length; i += 1000) {
      const held = await db
        .selectFrom('nft_items')
        .select(['address', 'owner_address'])
        .where('owner_address', 'in', changed.slice(i, i + 1000))
        .where('real_owner', 'is', null)
        .execute();
      for (const item of held) {
        if (written.has(item.address) || !item.owner_address) continue;
        const seller = await sellerOf(parseRaw(item.address), parseRaw(item.owner_address));
        if (seller) rows.realOwners.push({ address: item.address, real_owner: seller });
      }
    }

    await tokenEvents(db, batch, rows);
    return rows;
  }

  /** Which token get-methods an account answers: from its method ids, or, for library code, by probing once per code. */
  async function kindsOf(state: LatestAccountStateRow, address: Address, run: TokenGetMethods): Promise<TokenKind[]> {
    const ids = methodIdsOf(state);
    if (ids.size > 0) return KINDS.filter((k) => KIND_METHOD_IDS[k].every((id) => ids.has(id)));
    const code = Cell.fromBase64(state.code_boc!);
    if (!code.isExotic) return [];
    const codeHash = state.code_hash!;
    let kinds = probedCodes.get(codeHash);
    if (!kinds) {
      kinds = [];
      for (const kind of KINDS) if ((await run(address, TOKEN_GET_METHODS[kind][0], [])) !== null) kinds.push(kind);
      if (probedCodes.size >= PROBED_CODES_MAX) probedCodes.clear();
      probedCodes.set(codeHash, kinds);
    }
    return kinds;
  }

  return {
    name: 'tokens',
    prepare,
    async write(trx, _batch, rows) {
      await upsert(trx, 'jetton_masters', rows.jettonMasters, [
        'total_supply',
        'mintable',
        'admin_address',
        'jetton_content',
        'jetton_wallet_code_hash',
        'code_hash',
        'data_hash',
        'last_transaction_lt',
      ]);
      await upsert(trx, 'jetton_wallets', rows.jettonWallets, [
        'balance',
        'owner',
        'jetton',
        'last_transaction_lt',
        'code_hash',
        'data_hash',
      ]);
      await upsert(trx, 'nft_collections', rows.nftCollections, [
        'next_item_index',
        'owner_address',
        'collection_content',
        'last_transaction_lt',
        'code_hash',
        'data_hash',
      ]);
      await upsert(trx, 'nft_items', rows.nftItems, [
        'init',
        'index',
        'collection_address',
        'owner_address',
        'content',
        'last_transaction_lt',
        'code_hash',
        'data_hash',
        'real_owner',
      ]);
      for (const { address, real_owner } of rows.realOwners)
        await trx.updateTable('nft_items').set({ real_owner }).where('address', '=', address).where('real_owner', 'is', null).execute();
      await insert(trx, 'jetton_transfers', rows.jettonTransfers);
      await insert(trx, 'jetton_burns', rows.jettonBurns);
      await insert(trx, 'nft_transfers', rows.nftTransfers);
      if (rows.backfill) {
        const { cursor, done } = rows.backfill;
        await trx
          .insertInto('tokens_backfill')
          .values({ id: 1, cursor, done })
          .onConflict((oc) => oc.column('id').doUpdateSet({ cursor, done }))
          .execute();
      }
    },
  };
}

/**
 * The next page of accounts the index held before this derivation ran on it (an index built by an older version):
 * their latest states are read like the block's own, so tokens that have not moved since are found too. On an index
 * built with the derivation the first page is empty (the first block has nothing before it) and the look is over.
 */
async function backfillPage(
  db: Kysely<TokensDb>,
  inBatch: Map<string, LatestAccountStateRow>,
): Promise<{ states: LatestAccountStateRow[]; next: TokenRows['backfill'] }> {
  const progress = await db.selectFrom('tokens_backfill').select(['cursor', 'done']).where('id', '=', 1).executeTakeFirst();
  if (progress?.done) return { states: [], next: null };
  const cursor = progress?.cursor ?? '';
  const page = await db
    .selectFrom('latest_account_states')
    .selectAll()
    .where('account', '>', cursor)
    .orderBy('account')
    .limit(BACKFILL_PAGE)
    .execute();
  // The block's own state of an account is newer than the indexed one.
  const states = page
    .filter((r) => !inBatch.has(r.account))
    .map((r) => ({ ...r, extra_currencies: JSON.stringify(r.extra_currencies), contract_methods: JSON.stringify(r.contract_methods) }));
  return { states, next: { cursor: page.at(-1)?.account ?? cursor, done: page.length < BACKFILL_PAGE } };
}

type UpsertTable = 'jetton_masters' | 'jetton_wallets' | 'nft_collections' | 'nft_items';

async function upsert<T extends UpsertTable>(
  trx: Transaction<TokensDb>,
  table: T,
  rows: Insertable<TokensDb[T]>[],
  update: string[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .onConflict((oc) =>
        oc
          .column('address' as never)
          .doUpdateSet((eb) => Object.fromEntries(update.map((c) => [c, eb.ref(`excluded.${c}` as never)])) as never),
      )
      .execute();
  }
}

async function insert<T extends 'jetton_transfers' | 'jetton_burns' | 'nft_transfers'>(
  trx: Transaction<TokensDb>,
  table: T,
  rows: Insertable<TokensDb[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
}

/** Decoded addresses may be external (`len;hex`); the tables hold internal ones only. */
const internal = (a: string | null) => (a !== null && a.includes(':') ? a : null);

const signed32 = (op: number) => Number(BigInt.asIntN(32, BigInt(op)));

/**
 * Transfers and burns: a transaction of a jetton wallet (NFT item) whose inbound message asks for a transfer or a
 * burn. The sender of that message is the owner who asked; the transaction's aborted flag says whether it went
 * through. Bounced messages carry the 0xffffffff prefix, so they never match these opcodes.
 */
async function tokenEvents(db: Kysely<TokensDb>, batch: McBlockBatch, rows: TokenRows): Promise<void> {
  const wanted = new Set([signed32(OP.jettonTransfer), signed32(OP.jettonBurn), signed32(OP.nftTransfer)]);
  // Internal requests only: the sender is the owner asking (an external message has none).
  const requests = batch.messages.filter(
    (m) => m.direction === 'in' && m.source != null && m.opcode != null && wanted.has(m.opcode) && !m.bounced,
  );
  if (requests.length === 0) return;
  const accounts = [...new Set(requests.map((m) => m.tx_account))];
  const wallets = new Map(rows.jettonWallets.map((w) => [w.address, w.jetton]));
  const items = new Map(rows.nftItems.map((i) => [i.address, { collection: i.collection_address ?? null, index: i.index }]));
  const [storedWallets, storedItems] = await Promise.all([
    db.selectFrom('jetton_wallets').select(['address', 'jetton']).where('address', 'in', accounts).execute(),
    db.selectFrom('nft_items').select(['address', 'collection_address', 'index']).where('address', 'in', accounts).execute(),
  ]);
  for (const w of storedWallets) if (!wallets.has(w.address)) wallets.set(w.address, w.jetton);
  for (const i of storedItems) if (!items.has(i.address)) items.set(i.address, { collection: i.collection_address, index: i.index });
  const bodies = new Map(batch.contents.map((c) => [c.hash, c.body]));
  const txs = new Map<string, TransactionRow>(batch.transactions.map((t) => [t.hash, t]));

  for (const m of requests) {
    const tx = txs.get(m.tx_hash);
    const body = bodies.get(m.body_hash);
    if (!tx || !body) continue;
    const cell = Cell.fromBase64(body);
    const event = eventColumns(tx, m);
    if (m.opcode === signed32(OP.jettonTransfer) || m.opcode === signed32(OP.jettonBurn)) {
      const jetton = wallets.get(m.tx_account);
      if (!jetton) continue;
      if (m.opcode === signed32(OP.jettonTransfer)) {
        const t = decodeJettonTransfer(cell);
        if (!t) continue;
        rows.jettonTransfers.push({
          ...event,
          query_id: t.query_id,
          amount: t.amount,
          source: m.source,
          destination: internal(t.destination),
          jetton_wallet_address: m.tx_account,
          jetton_master_address: jetton,
          response_destination: internal(t.response_destination),
          custom_payload: t.custom_payload,
          forward_ton_amount: t.forward_amount,
          forward_payload: t.forward_payload,
        });
      } else {
        const b = decodeJettonBurn(cell);
        if (!b) continue;
        rows.jettonBurns.push({
          ...event,
          query_id: b.query_id,
          owner: m.source!,
          jetton_wallet_address: m.tx_account,
          jetton_master_address: jetton,
          amount: b.amount,
          response_destination: internal(b.response_destination),
          custom_payload: b.custom_payload,
        });
      }
    } else {
      const item = items.get(m.tx_account);
      const t = item && decodeNftTransferBody(cell);
      if (!item || !t) continue;
      rows.nftTransfers.push({
        ...event,
        query_id: t.query_id,
        nft_item_address: m.tx_account,
        nft_item_index: item.index,
        nft_collection_address: item.collection,
        old_owner: m.source,
        new_owner: internal(t.new_owner),
        response_destination: internal(t.response_destination),
        custom_payload: t.custom_payload,
        forward_amount: t.forward_amount,
        forward_payload: t.forward_payload,
      });
    }
  }
}

function eventColumns(tx: TransactionRow, m: MessageRow) {
  return { tx_hash: tx.hash, tx_lt: tx.lt, tx_now: tx.now, tx_aborted: tx.aborted, mc_seqno: m.mc_seqno };
}
