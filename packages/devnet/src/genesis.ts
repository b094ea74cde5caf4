import { beginCell, Cell, Dictionary } from '@ton/core';
import { defaultConfig } from '@ton/sandbox';
import type { Network } from '@tongate/chain';
import { jettonWalletCodeBoc } from './contracts/codes.js';

export const GLOBAL_IDS: Record<Network, number> = { mainnet: -239, testnet: -3 };

/** Config param that holds the chain's global_id (int32). */
const CONFIG_PARAM_GLOBAL_ID = 19;

/**
 * Genesis config: the sandbox's embedded mainnet config (38 params, taken from mainnet) with param 19 (global_id)
 * set to the network's id, so that testnet and mainnet devnets are different chains.
 */
export function genesisConfig(globalId: number): Cell {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
  dict.set(CONFIG_PARAM_GLOBAL_ID, beginCell().storeInt(globalId, 32).endCell());
  return beginCell().storeDictDirect(dict).endCell();
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
