import { detectAddress, detectHash, packAddress, unpackAddress } from '../address-forms.js';
import { type Deps, isTestnet, operation } from './common.js';

export function utilOperations(deps: Deps) {
  return {
    detectAddress: operation<'detectAddress'>(deps, (params, ctx) => detectAddress(params.address, isTestnet(ctx))),
    detectHash: operation<'detectHash'>(deps, (params) => detectHash(params.hash)),
    packAddress: operation<'packAddress'>(deps, (params, ctx) => packAddress(params.address, isTestnet(ctx))),
    unpackAddress: operation<'unpackAddress'>(deps, (params) => unpackAddress(params.address)),
  };
}
