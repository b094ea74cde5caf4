import { detectAddress, detectHash, packAddress, unpackAddress } from '../address-forms.js';
import { type Deps, isTestnet, operation } from './common.js';

export function utilOperations(deps: Deps) {
  return {
    detectAddress: operation<'detectAddress'>(deps, ({ query, ctx }) => detectAddress(query.address, isTestnet(ctx))),
    detectHash: operation<'detectHash'>(deps, ({ query }) => detectHash(query.hash)),
    packAddress: operation<'packAddress'>(deps, ({ query, ctx }) => packAddress(query.address, isTestnet(ctx))),
    unpackAddress: operation<'unpackAddress'>(deps, ({ query }) => unpackAddress(query.address)),
  };
}
