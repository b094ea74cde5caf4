import { ChainError } from '@tongate/chain';
import { ApiError } from '../api-error.js';
import { b64, bocB64, tvmCell } from '../format.js';
import { type Deps, operation } from './common.js';

export function configOperations(deps: Deps) {
  const { chain } = deps;
  return {
    getConfigParam: operation<'getConfigParam'>(deps, async ({ query }) => {
      const { param, config_id: configId } = query;
      if ((param === undefined) === (configId === undefined))
        throw new ApiError(422, 'exactly one of param or config_id should be specified');
      const id = (param ?? configId)!;
      const cell = await chain.getConfigParam(id, query.seqno);
      if (!cell) throw new ChainError('not_found', `config param ${id} is not set`);
      return { '@type': 'configInfo', config: tvmCell(cell) };
    }),

    getConfigAll: operation<'getConfigAll'>(deps, async ({ query }) => {
      const cell = await chain.getConfigAll(query.seqno);
      return { '@type': 'configInfo', config: tvmCell(cell) };
    }),

    getLibraries: operation<'getLibraries'>(deps, async ({ query }) => {
      const found = await chain.getLibraries(query.libraries ?? []);
      return {
        '@type': 'smc.libraryResult',
        result: found.map((lib) => ({ '@type': 'smc.libraryEntry', hash: b64(lib.hash), data: bocB64(lib.data) })),
      };
    }),
  };
}
