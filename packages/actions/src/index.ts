export * from './types.js';
export { CLASSIFIER_VERSION, MATCHERS, classifyTrace } from './classify.js';
export type { ActionDraft, Matcher, MatchContext } from './core.js';
export { toV3Action, v3Details } from './v3.js';
export { ACTION_TYPE_SHORTCUTS, V1_TYPES, expandSupportedActionTypes, visibleActions } from './versions.js';
export * from './golden.js';
export { decodeJettonTransfer, decodeJettonBurn } from './matchers/jettons.js';
export { decodeNftTransferBody } from './matchers/nft.js';
