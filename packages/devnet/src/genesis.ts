import { beginCell, Cell, Dictionary, type Address, type ShardAccount, type StateInit } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { Network } from '@tongate/chain';
import { jettonWalletCodeBoc } from './contracts/codes.js';

export const GLOBAL_IDS: Record<Network, number> = { mainnet: -239, testnet: -3 };

/** Config param that holds the chain's global_id (int32). */
const CONFIG_PARAM_GLOBAL_ID = 19;
/** Config param that names the root DNS resolver (`dns_root_addr:bits256`, masterchain). */
const CONFIG_PARAM_DNS_ROOT = 4;

/**
 * Genesis config: the sandbox's embedded mainnet config (38 params, taken from mainnet) with param 19 (global_id)
 * set to the network's id, so that testnet and mainnet devnets are different chains, and param 4 naming the
 * devnet's own root DNS resolver (mainnet's value names an account the devnet does not have).
 */
export function genesisConfig(globalId: number, dnsRoot?: Address): Cell {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
  dict.set(CONFIG_PARAM_GLOBAL_ID, beginCell().storeInt(globalId, 32).endCell());
  if (dnsRoot) dict.set(CONFIG_PARAM_DNS_ROOT, beginCell().storeBuffer(dnsRoot.hash, 32).endCell());
  return beginCell().storeDictDirect(dict).endCell();
}

/** Balance of each DNS contract at genesis (the root keeps nothing; the collection's items pay their own way). */
const DNS_GENESIS_BALANCE = 10_000_000_000n;

/** An active account at genesis with the given state init (the root resolver and the `.ton` collection). */
export function genesisContractAccount(address: Address, init: StateInit, genUtime: number): ShardAccount {
  return {
    account: {
      addr: address,
      storage: {
        lastTransLt: 0n,
        balance: { coins: DNS_GENESIS_BALANCE },
        state: { type: 'active', state: { code: init.code!, data: init.data! } },
      },
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: genUtime, duePayment: null, storageExtra: null },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
}

/**
 * Global libraries at genesis: the standard TEP-74 jetton wallet code, published so that contracts can reference it
 * as a library cell (as many mainnet jettons do) and getLibraries has something real to serve.
 */
export function genesisLibraries(): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  const code = Cell.fromBase64(jettonWalletCodeBoc);
  dict.set(code.hash(), code);
  return beginCell().storeDictDirect(dict).endCell();
}
