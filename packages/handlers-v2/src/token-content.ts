// TEP-64 content parsing lives in @tongate/contracts (the indexer decodes token content too).
export { parseTokenContent, type TokenContent } from '@tongate/contracts';
