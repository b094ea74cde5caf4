import type { Address } from '@ton/core';

/**
 * Raw upper-case `wc:HEX`: how the chain tables store an address and how API v3 (and tonlib's account ids in v2)
 * print it. Every package writes it through this function so that the stored and the printed forms cannot drift.
 */
export function rawAddress(address: Address): string;
export function rawAddress(workchain: number, hash: Buffer): string;
export function rawAddress(a: Address | number, hash?: Buffer): string {
  return typeof a === 'number' ? `${a}:${hash!.toString('hex').toUpperCase()}` : `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
}

export { friendlyForms } from './friendly-address.js';
