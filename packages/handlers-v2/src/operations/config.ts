import { ChainError } from '@tongate/chain';
import { ApiError } from '../api-error.js';
import { b64, bocB64, tvmCell } from '../format.js';
import { optionalInt32, optionalSeqno, type Params, queryToken, tryParseHash } from '../parse.js';
import { type Deps, operation } from './common.js';

/** `libraries`: a JSON array, a repeated query key, or a comma-separated list of hashes. */
function libraryHashes(params: Params): Buffer[] {
  const value = params.libraries;
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : String(value).split(',');
  return items.map((item) => {
    const hash = typeof item === 'string' ? tryParseHash(queryToken(item)) : null;
    if (!hash) throw new ApiError(422, `invalid libraries: '${String(item)}' is not a 32-byte hash in hex or base64`);
    return hash;
  });
}

export function configOperations(deps: Deps) {
  const { chain } = deps;
  return {
    getConfigParam: operation<'getConfigParam'>(deps, async (params) => {
      const param = optionalInt32(params, 'param');
      const configId = optionalInt32(params, 'config_id');
      if ((param === undefined) === (configId === undefined)) throw new ApiError(422, 'exactly one of param or config_id should be specified');
      const id = (param ?? configId)!;
      if (id < 0) throw new ApiError(422, `${param !== undefined ? 'param' : 'config_id'} should be non-negative`);
      const cell = await chain.getConfigParam(id, optionalSeqno(params));
      if (!cell) throw new ChainError('not_found', `config param ${id} is not set`);
      return { '@type': 'configInfo', config: tvmCell(cell) };
    }),

    getConfigAll: operation<'getConfigAll'>(deps, async (params) => {
      const cell = await chain.getConfigAll(optionalSeqno(params));
      return { '@type': 'configInfo', config: tvmCell(cell) };
    }),

    getLibraries: operation<'getLibraries'>(deps, async (params) => {
      const found = await chain.getLibraries(libraryHashes(params));
      return {
        '@type': 'smc.libraryResult',
        result: found.map((lib) => ({ '@type': 'smc.libraryEntry', hash: b64(lib.hash), data: bocB64(lib.data) })),
      };
    }),
  };
}
