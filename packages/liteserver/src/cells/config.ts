import type { Cell } from '@ton/core';
import { hashmapLookup } from './hashmap.js';

/** One config parameter from a (proof of a) ConfigParams dictionary root, or null when absent. */
export function configParamOf(configRoot: Cell, id: number): Cell | null {
  const key = Buffer.alloc(4);
  key.writeInt32BE(id);
  return hashmapLookup(configRoot, key, 32)?.loadRef() ?? null;
}
