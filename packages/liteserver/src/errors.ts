/** A `liteServer.error` answer, with the server's numeric code kept (ton-lite-client loses it). */
export class LiteServerError extends Error {
  override name = 'LiteServerError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The query got no answer in time, or the connection failed under it: worth retrying on another server. */
export class LiteTransportError extends Error {
  override name = 'LiteTransportError';
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

/** Liteserver error codes (ton common/errorcode.h) and what they mean for a client. */
export const LS_CODE = {
  /** fatal_error default: deterministic (bad request, not found, hash mismatch). */
  FATAL: -400,
  /** The server's own 4.5 s query timeout. */
  TIMEOUT: -503,
  /** notready: not in db, out of sync, state gc'd. */
  NOT_READY: 651,
  TIMEOUT_ERROR: 652,
  PROTOCOL_VIOLATION: 621,
  FAILURE: 601,
  ERROR: 602,
} as const;
