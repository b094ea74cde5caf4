import { isChainError, normalizedExternalMessageHash } from '@tongate/chain';
import { beginCell, type Cell, loadMessage, storeMessage } from '@ton/core';
import { ApiError } from '../api-error.js';
import { b64 } from '../format.js';
import { optionalBool, optionalBoc, parseAddress, parseBoc, type Params } from '../parse.js';
import { type Deps, operation } from './common.js';

/** The `boc` parameter: one external-in message. */
function externalMessage(params: Params): Cell {
  const cell = parseBoc('boc', params.boc);
  let type: string;
  try {
    type = loadMessage(cell.beginParse()).info.type;
  } catch (e) {
    throw new ApiError(422, `invalid boc: not a message (${(e as Error).message})`);
  }
  if (type !== 'external-in') throw new ApiError(422, `invalid boc: an external-in message is expected, got ${type}`);
  return cell;
}

/** A message the chain refuses is the sender's fault: 422 with the chain's reason. */
async function send<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (isChainError(e) && (e.kind === 'refused' || e.kind === 'invalid')) throw new ApiError(422, e.message);
    throw e;
  }
}

export function sendOperations(deps: Deps) {
  const { chain } = deps;
  const submit = (message: Cell) => send(() => (deps.submitMessage ? deps.submitMessage(message) : chain.sendMessage(message.toBoc())));
  return {
    sendBoc: operation<'sendBoc'>(deps, async (params) => {
      const message = externalMessage(params);
      await submit(message);
      return { '@type': 'ok' };
    }),

    sendBocReturnHash: operation<'sendBocReturnHash'>(deps, async (params) => {
      const message = externalMessage(params);
      const { hash } = await submit(message);
      return { '@type': 'raw.extMessageInfo', hash: b64(hash), hash_norm: b64(normalizedExternalMessageHash(message)) };
    }),

    estimateFee: operation<'estimateFee'>(deps, async (params) => {
      const destination = parseAddress(params, 'address');
      const body = parseBoc('body', params.body);
      const code = optionalBoc('init_code', params.init_code);
      const data = optionalBoc('init_data', params.init_data);
      const ignoreChksig = optionalBool(params, 'ignore_chksig') ?? true;
      const message = beginCell()
        .store(
          storeMessage({
            info: { type: 'external-in', dest: destination, importFee: 0n },
            init: code || data ? { code: code ?? null, data: data ?? null } : null,
            body,
          }),
        )
        .endCell();
      const result = await send(() => chain.emulateExternalMessage(message, { ignoreChksig }));
      const f = result.fees;
      return {
        '@type': 'query.fees',
        source_fees: {
          '@type': 'fees',
          in_fwd_fee: Number(f.inFwdFee),
          storage_fee: Number(f.storageFee),
          gas_fee: Number(f.gasFee),
          fwd_fee: Number(f.fwdFee),
        },
        destination_fees: [],
      };
    }),
  };
}
