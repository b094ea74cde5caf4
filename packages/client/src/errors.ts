/** A non-2xx reply (or a v2 `ok: false` envelope) from tongate or toncenter.com. */
export class TonGateApiError extends Error {
  override readonly name = 'TonGateApiError';

  constructor(
    /** HTTP status (for v2 it equals the envelope's `code`). */
    readonly status: number,
    /** The server's error text: the `error` field of the v2 or v3 error body. */
    readonly text: string,
    /** The whole decoded error body, for anything beyond `error`. */
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${text}`);
  }

  static fromReply(status: number, body: unknown): TonGateApiError {
    return new TonGateApiError(status, errorText(status, body), body);
  }
}

function errorText(status: number, body: unknown): string {
  if (typeof body === 'string' && body.length > 0) return body;
  if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') return body.error;
  return `HTTP ${status}`;
}
