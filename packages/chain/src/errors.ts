/**
 * Failures a ChainSource reports. The front door maps each kind to one HTTP status, so that every backend
 * (devnet, liteservers) fails the same way for the same cause.
 */
export type ChainErrorKind =
  /** The named object (block, transaction, account history) does not exist or not yet. → 404 (v2 lookups: 422/404 per operation) */
  | 'not_found'
  /** The chain refused the request because of its content (a message the account does not accept). → 422 */
  | 'refused'
  /** The request is malformed for the chain (bad BOC, bad method id). → 422 */
  | 'invalid'
  /** The backend did not answer in time. → 504 */
  | 'timeout'
  /** No backend is reachable. → 503 */
  | 'unavailable'
  /** Anything else inside the backend. → 500 */
  | 'internal';

export class ChainError extends Error {
  readonly kind: ChainErrorKind;
  constructor(kind: ChainErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainError';
    this.kind = kind;
  }
}

export function isChainError(e: unknown): e is ChainError {
  return e instanceof ChainError || (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ChainError');
}
