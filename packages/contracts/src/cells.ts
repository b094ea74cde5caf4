import { Address, Dictionary, type Cell, type DictionaryValue, type Slice } from '@ton/core';

/** Cell-reading helpers the decoders share. Decoders return bigint amounts, hex (lower case) hashes and keys. */

/** A dictionary value codec that only reads: decoders never write contract state. */
export function readOnlyValue<V>(parse: (s: Slice) => V): DictionaryValue<V> {
  return {
    parse,
    serialize: () => {
      throw new Error('decoder dictionaries are read-only');
    },
  };
}

/** A 256-bit unsigned integer as 64 lower-case hex digits. */
export function hex256(value: bigint): string {
  return value.toString(16).padStart(64, '0');
}

/** `HashmapE 256 X` entries keyed by a 256-bit id, as [hex key, value] sorted by key (dictionary order). */
export function entries256<V>(dict: Dictionary<bigint, V>): [string, V][] {
  return [...dict].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [hex256(k), v]);
}

export const KEY256 = Dictionary.Keys.BigUint(256);

/** A masterchain address from the 256-bit account id the elector stores instead of a full address. */
export function masterchainAddress(accountId: bigint): Address {
  return new Address(-1, Buffer.from(hex256(accountId), 'hex'));
}

/** A basechain address from a 256-bit account id (nominator keys). */
export function basechainAddress(accountId: bigint): Address {
  return new Address(0, Buffer.from(hex256(accountId), 'hex'));
}

/** Reads the whole cell with `read`, then insists nothing is left over, so a wrong layout fails loudly instead of
 * yielding plausible garbage. */
export function decodeExactly<T>(cell: Cell, what: string, read: (s: Slice) => T): T {
  const s = cell.beginParse();
  let value: T;
  try {
    value = read(s);
  } catch (e) {
    throw new ContractDecodeError(what, (e as Error).message);
  }
  if (s.remainingBits !== 0 || s.remainingRefs !== 0) {
    throw new ContractDecodeError(what, `${s.remainingBits} bits and ${s.remainingRefs} refs left over`);
  }
  return value;
}

export class ContractDecodeError extends Error {
  constructor(what: string, detail: string) {
    super(`cannot decode ${what}: ${detail}`);
    this.name = 'ContractDecodeError';
  }
}

/** Reads a constructor tag and fails with the expected one named. */
export function expectTag(s: Slice, bits: number, tag: number, what: string): void {
  const got = s.loadUint(bits);
  if (got !== tag) throw new Error(`${what}: tag 0x${got.toString(16)}, expected 0x${tag.toString(16)}`);
}
