import { Address, Dictionary, type Cell } from '@ton/core';
import { CONTRACT_INTERFACES, type ContractInterface } from './interface-table.js';
import { methodId } from './get-method.js';
import { readOnlyValue } from './cells.js';

/**
 * Which contract an account runs, two ways:
 * - `detectInterfaces`: toncenter's rule for the `interfaces` of address_book / accountStates — a code hash listed
 *   for an interface names that interface alone; otherwise every interface whose (non-empty) get-method list is
 *   among the code's method ids, sorted by name.
 * - `detectStakingContract` and the addresses below: the contracts this package decodes whose identity the
 *   interface table does not pin down (the TON Foundation pool is only `tv_pool` by methods there, single-nominator
 *   pools are absent), recognised by code hash as the research and the classifier do.
 */

export { CONTRACT_INTERFACES, type ContractInterface };

const byCodeHash = new Map<string, string>();
for (const i of CONTRACT_INTERFACES) for (const h of i.codeHashes) byCodeHash.set(h, i.name);

const byMethods = CONTRACT_INTERFACES.filter((i) => i.methods.length > 0)
  .map((i) => ({ name: i.name, ids: i.methods.map(methodId) }))
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** Interfaces of a contract from its code hash (hex) and the method ids its code defines. */
export function detectInterfaces(codeHash: string, methodIds: ReadonlySet<number>): string[] {
  const exact = byCodeHash.get(codeHash.toLowerCase());
  if (exact !== undefined) return [exact];
  return byMethods.filter((i) => i.ids.every((id) => methodIds.has(id))).map((i) => i.name);
}

export function detectCodeInterfaces(code: Cell): string[] {
  return detectInterfaces(code.hash().toString('hex'), codeMethodIds(code));
}

/** The 14-bit prefix of DICTPUSHCONST (`F4A6_` with its first ref as the dictionary), followed by the key length. */
const DICTPUSHCONST = 0b11110100101001;
const SETCP0 = 0xff00;
const IGNORE = readOnlyValue(() => null);

/**
 * Method ids a contract's code defines: the keys of the method dictionary that FunC and Tolk code opens with
 * (`SETCP0; DICTPUSHCONST 19; DICTIGETJMPZ …`, the dictionary being the code's first reference). Empty for code of
 * another shape, which then matches interfaces by code hash only.
 */
export function codeMethodIds(code: Cell): Set<number> {
  try {
    const s = code.beginParse();
    if (s.remainingBits >= 16 && s.preloadUint(16) === SETCP0) s.skip(16);
    if (s.remainingBits < 24 || s.loadUint(14) !== DICTPUSHCONST || code.refs.length === 0) return new Set();
    const keyBits = s.loadUint(10);
    if (keyBits === 0 || keyBits > 64) return new Set();
    return new Set([...Dictionary.loadDirect(Dictionary.Keys.Int(keyBits), IGNORE, code.refs[0]).keys()]);
  } catch {
    return new Set();
  }
}

export type StakingContract = 'nominator_pool_v1' | 'single_nominator_v1.0' | 'single_nominator_v1.1';

/** Code hashes of the pools `/staking/nominatorPools/*` covers (hex). */
export const STAKING_CODE_HASHES: Readonly<Record<string, StakingContract>> = {
  // ton-blockchain/nominator-pool v1.0 (fixtures/accounts/nominator-pool).
  '9a3ec14bc098f6b44064c305222caea2800f17dda85ee6a8198a7095ede10dcf': 'nominator_pool_v1',
  a42ae69eac76ffe0e452d3d4f13d387a14e46c01a5aadba5fc1d893e6c71f5ba: 'single_nominator_v1.0',
  // fixtures/accounts/single-nominator.
  cc0d39589eb2c0cfe0fde28456657a3bdd3d953955ae3f98f25664ab3c904fbd: 'single_nominator_v1.1',
};

export function detectStakingContract(code: Cell): StakingContract | null {
  return STAKING_CODE_HASHES[code.hash().toString('hex')] ?? null;
}

/** The elector and config contracts live at config params 1 and 0; these are their mainnet and testnet values. */
export const ELECTOR_ADDRESS = Address.parseRaw('-1:' + '3'.repeat(64));
export const CONFIG_ADDRESS = Address.parseRaw('-1:' + '5'.repeat(64));

/** NFT collections whose items are the `.ton` domains (mainnet, testnet) and the Telegram usernames (Telemint, t.me). */
export const TON_DNS_COLLECTION = Address.parseRaw('0:b774d95eb20543f186c06b371ab88ad704f7e256130caf96189368a7d0cb6ccf');
export const TON_DNS_TESTNET_COLLECTION = Address.parseRaw('0:e33ed33a42eb2032059f97d90c706f8400bb256d32139ca707f1564ad699c7dd');
export const TELEGRAM_USERNAMES_COLLECTION = Address.parseRaw('0:80d78a35f955a14b679faa887ff4cd5bfc0f43b4a4eea2a7e6927f3701b273c2');
