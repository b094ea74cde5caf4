import { detectAddress, detectHash, packAddress, unpackAddress } from '../address-forms.js';
import { type Deps, isTestnet, operation, type Operation } from './common.js';

export function utilOperations(deps: Deps): Record<string, Operation> {
  return {
    detectAddress: operation(deps, (params, ctx) => detectAddress(params.address, isTestnet(ctx))),
    detectHash: operation(deps, (params) => detectHash(params.hash)),
    packAddress: operation(deps, (params, ctx) => packAddress(params.address, isTestnet(ctx))),
    unpackAddress: operation(deps, (params) => unpackAddress(params.address)),
  };
}
