import { b64 } from '../format.js';
import { chainSubmitter, estimateExternalFees, sendExternal } from '@tongate/domain';
import { type Deps, operation } from './common.js';

export function sendOperations(deps: Deps) {
  const { chain } = deps;
  const submit = deps.submitMessage ?? chainSubmitter(chain);
  return {
    sendBoc: operation<'sendBoc'>(deps, async ({ body }) => {
      await sendExternal(submit, body.boc);
      return { '@type': 'ok' };
    }),

    sendBocReturnHash: operation<'sendBocReturnHash'>(deps, async ({ body }) => {
      const sent = await sendExternal(submit, body.boc);
      return { '@type': 'raw.extMessageInfo', hash: b64(sent.hash), hash_norm: b64(sent.hashNorm) };
    }),

    estimateFee: operation<'estimateFee'>(deps, async ({ body }) => {
      const f = await estimateExternalFees(chain, body);
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
