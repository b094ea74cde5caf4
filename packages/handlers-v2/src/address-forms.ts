import type { v2 } from '@tongate/sdk';
import type { Address } from '@ton/core';
import { friendlyFlags } from '@tongate/stubs';
import { rawUpper } from './format.js';
import { friendlyForms } from '@tongate/read-model';

/** The utils operations' address and hash conversions, over addresses and hashes the decoders already parsed. */

export function detectAddress(address: Address, networkTestOnly: boolean): v2.DetectedAddress {
  const friendly = friendlyFlags(address);
  // Friendly input keeps its own testnet flag; raw input takes the serving network's.
  const testOnly = friendly ? friendly.testOnly : networkTestOnly;
  return {
    '@type': 'ext.utils.detectedAddress' as const,
    raw_form: address.toRawString(),
    bounceable: { '@type': 'ext.utils.detectedAddressVariant' as const, ...friendlyForms(address.workChain, address.hash, true, testOnly) },
    non_bounceable: {
      '@type': 'ext.utils.detectedAddressVariant' as const,
      ...friendlyForms(address.workChain, address.hash, false, testOnly),
    },
    given_type: !friendly ? 'raw_form' : friendly.bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable',
    test_only: testOnly,
  };
}

/** User-friendly url-safe form. Raw input packs bounceable with the network's testnet flag; friendly input keeps its bounceable flag. */
export function packAddress(address: Address, networkTestOnly: boolean): string {
  return address.toString({ urlSafe: true, bounceable: friendlyFlags(address)?.bounceable ?? true, testOnly: networkTestOnly });
}

export function unpackAddress(address: Address): string {
  return rawUpper(address);
}

export function detectHash(hash: Buffer) {
  return {
    '@type': 'ext.utils.detectedHash' as const,
    b64: hash.toString('base64'),
    b64url: hash.toString('base64url'),
    hex: hash.toString('hex'),
  };
}
