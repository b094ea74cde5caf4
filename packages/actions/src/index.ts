export * from './types.js';
export { CLASSIFIER_VERSION, MATCHERS, classifyTrace } from './classify.js';
export type { ActionDraft, Matcher, MatchContext } from './core.js';
export * from './golden.js';
