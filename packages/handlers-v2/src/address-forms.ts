import type { v2 } from '@tongate/sdk';
import { Address } from '@ton/core';
import { ApiError } from './api-error.js';
import { rawUpper } from './format.js';
import { friendlyForms, parseFriendly } from './friendly-address.js';
import { addressError, queryToken, tryParseAddress, tryParseHash } from './parse.js';

/** The utils operations' address and hash conversions. */

function parseAny(value: unknown): { address: Address; friendly: { bounceable: boolean; testOnly: boolean } | null } {
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError(422, 'address is required');
  const text = queryToken(value);
  if (!text.includes(':')) {
    const parsed = parseFriendly(text);
    if (parsed) return { address: new Address(parsed.workchain, parsed.hash), friendly: { bounceable: parsed.bounceable, testOnly: parsed.testOnly } };
  }
  const address = text.includes(':') ? tryParseAddress(text) : null;
  if (!address) throw addressError('address', text);
  return { address, friendly: null };
}

export function detectAddress(value: unknown, networkTestOnly: boolean): v2.DetectedAddress {
  const { address, friendly } = parseAny(value);
  // Friendly input keeps its own testnet flag; raw input takes the serving network's.
  const testOnly = friendly ? friendly.testOnly : networkTestOnly;
  return {
    '@type': 'ext.utils.detectedAddress' as const,
    raw_form: address.toRawString(),
    bounceable: { '@type': 'ext.utils.detectedAddressVariant' as const, ...friendlyForms(address.workChain, address.hash, true, testOnly) },
    non_bounceable: { '@type': 'ext.utils.detectedAddressVariant' as const, ...friendlyForms(address.workChain, address.hash, false, testOnly) },
    given_type: !friendly ? 'raw_form' : friendly.bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
    test_only: testOnly,
  };
}

/** User-friendly url-safe form. Raw input packs bounceable with the network's testnet flag; friendly input keeps its bounceable flag. */
export function packAddress(value: unknown, networkTestOnly: boolean): string {
  const { address, friendly } = parseAny(value);
  return address.toString({ urlSafe: true, bounceable: friendly ? friendly.bounceable : true, testOnly: networkTestOnly });
}

export function unpackAddress(value: unknown): string {
  const { address } = parseAny(value);
  return rawUpper(address);
}

export function detectHash(value: unknown) {
  if (typeof value !== 'string' || value.trim() === '') throw new ApiError(422, 'hash is required');
  const hash = tryParseHash(queryToken(value));
  if (!hash) throw new ApiError(422, `invalid hash: '${value}' is not a 32-byte hash in hex or base64`);
  return {
    '@type': 'ext.utils.detectedHash' as const,
    b64: hash.toString('base64'),
    b64url: hash.toString('base64url'),
    hex: hash.toString('hex'),
  };
}
