import { type ChainSource, type EmulationResult, isChainError, normalizedExternalMessageHash } from '@tongate/chain';
import { type Address, beginCell, type Cell, loadMessage, storeMessage } from '@ton/core';
import { ApiError } from '@tongate/stubs';
import { optionalBoc, parseBoc } from './parse.js';

/** The `boc` of sendBoc / v3 message: one external-in message. */
export function externalMessage(boc: string): Cell {
  const cell = parseBoc('boc', boc);
  let type: string;
  try {
    type = loadMessage(cell.beginParse()).info.type;
  } catch (e) {
    throw new ApiError(422, `boc: not a message (${(e as Error).message})`);
  }
  if (type !== 'external-in') throw new ApiError(422, `boc: an external-in message is expected, got ${type}`);
  return cell;
}

/** A message the chain refuses is the sender's fault: 422 with the chain's reason. */
async function senderFault<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (e) {
    if (isChainError(e) && (e.kind === 'refused' || e.kind === 'invalid')) throw new ApiError(422, e.message);
    throw e;
  }
}

export interface SentMessage {
  hash: Buffer;
  /** The hash of the message normalized as toncenter does (no signature-dependent parts). */
  hashNorm: Buffer;
}

/** How an accepted external message leaves: straight to the chain, or through the pending-trace service first. */
export type MessageSubmitter = (message: Cell) => Promise<{ hash: Buffer }>;

/** The default submitter: the chain backend's broadcast. */
export const chainSubmitter =
  (chain: ChainSource): MessageSubmitter =>
  (message) =>
    chain.sendMessage(message.toBoc());

/** Broadcasts one external-in message (sendBoc, sendBocReturnHash, v3 /message). */
export async function sendExternal(submit: MessageSubmitter, boc: string): Promise<SentMessage> {
  const message = externalMessage(boc);
  const { hash } = await senderFault(() => submit(message));
  return { hash, hashNorm: normalizedExternalMessageHash(message) };
}

/** An external message described by its parts (estimateFee of both APIs). */
export interface FeeQuery {
  address: Address;
  body: string;
  init_code?: string;
  init_data?: string;
  ignore_chksig: boolean;
}

/** The fees of processing the external message `query` describes, emulated on the current state. */
export async function estimateExternalFees(chain: ChainSource, query: FeeQuery): Promise<EmulationResult['fees']> {
  const body = parseBoc('body', query.body);
  const code = optionalBoc('init_code', query.init_code);
  const data = optionalBoc('init_data', query.init_data);
  const message = beginCell()
    .store(
      storeMessage({
        info: { type: 'external-in', dest: query.address, importFee: 0n },
        init: code || data ? { code: code ?? null, data: data ?? null } : null,
        body,
      }),
    )
    .endCell();
  const result = await senderFault(() => chain.emulateExternalMessage(message, { ignoreChksig: query.ignore_chksig }));
  return result.fees;
}
