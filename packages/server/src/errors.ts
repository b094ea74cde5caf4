import { patternTexts } from '@tongate/stubs';

export type ApiVersion = 'v2' | 'v3';

/** Which error body a path gets: v3 (`{"error"}`) under /api/v3 and the Streaming API, v2 everywhere else. */
export function versionOfPath(path: string): ApiVersion {
  // The emulation API is specified in the v3 contract and answers in its error body, at every path under it; the
  // streaming endpoints answer their refusals in the v3 error body too.
  return path.startsWith('/api/v3') || path.startsWith('/api/emulate/') || path.startsWith('/api/streaming/') ? 'v3' : 'v2';
}

export function errorBody(version: ApiVersion, status: number, message: string): Record<string, unknown> {
  return version === 'v3' ? { error: message } : { ok: false, error: message, code: status };
}

/** An error the front door answers with a fixed status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

interface ValidatorIssue {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** Turns express-openapi-validator's `.query.address` / `/body/boc` paths into the parameter name. */
function parameterOf(path: string | undefined): string {
  if (!path) return '';
  const parts = path.split(/[./]/).filter(Boolean);
  if (parts[0] === 'query' || parts[0] === 'body' || parts[0] === 'params' || parts[0] === 'path' || parts[0] === 'headers') parts.shift();
  return parts.join('.');
}

function describeIssue(issue: ValidatorIssue): string {
  const message = issue.message ?? 'is invalid';
  const unknown = /^Unknown query parameter '(.+)'$/.exec(message);
  if (unknown) return `unknown query parameter: ${unknown[1]}`;
  const required = /must have required property '(.+)'/.exec(message);
  if (required) {
    const parent = parameterOf(issue.path);
    const name = parent && parent !== required[1] ? `${parent}.${required[1]}` : required[1];
    return `missing required parameter: ${name}`;
  }
  const additional = /must NOT have additional properties/.test(message);
  if (additional) return `unknown parameter in ${parameterOf(issue.path) || 'body'}`;
  const name = parameterOf(issue.path);
  // A failed pattern is said in words (the decoder kind's text), not by quoting the regular expression.
  const pattern = /^must match pattern "(.*)"$/.exec(message);
  const text = pattern ? patternTexts.get(pattern[1]!) : undefined;
  const said = text ?? message;
  return name ? `${name}: ${said}` : said;
}

export interface MappedError {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** True for failures the client did not cause: logged with the stack. */
  unexpected: boolean;
}

/**
 * Where the front door's own failures (HTTP, body parsing, validation) and the handlers' ApiErrors become a status
 * and a client-safe message. Chain failures are the handlers' to map (@tongate/domain chain-errors.ts): one that
 * reaches here is unexpected, a 500.
 */
export function mapError(err: unknown, requestId: string): MappedError {
  const e = err as {
    status?: number;
    statusCode?: number;
    message?: string;
    errors?: ValidatorIssue[];
    type?: string;
    name?: string;
  };
  if (err instanceof HttpError) return { status: err.status, message: err.message, headers: err.headers, unexpected: false };
  // ApiError from @tongate/stubs, identified structurally (also when thrown by another copy of the module).
  if (e && e.name === 'ApiError' && typeof e.status === 'number') {
    return {
      status: e.status,
      message: e.message ?? '',
      unexpected: e.status >= 500 && e.status !== 501 && e.status !== 503 && e.status !== 504,
    };
  }
  // body-parser
  if (e && e.type === 'entity.parse.failed') return { status: 422, message: `malformed JSON body: ${e.message}`, unexpected: false };
  if (e && e.type === 'entity.too.large') return { status: 413, message: 'request body too large', unexpected: false };
  if (e && e.type && typeof e.status === 'number' && e.status < 500)
    return { status: e.status, message: e.message ?? 'bad request', unexpected: false };
  // A compressed body that does not inflate: zlib's error, which body-parser passes on with status 400.
  if (e && typeof (e as { code?: unknown }).code === 'string' && /^Z_/.test((e as { code: string }).code)) {
    return {
      status: 400,
      message: `request body does not decode with its Content-Encoding: ${e.message ?? 'invalid data'}`,
      unexpected: false,
    };
  }
  // express-openapi-validator
  if (e && Array.isArray(e.errors) && typeof e.status === 'number') {
    if (e.status === 404) return { status: 404, message: 'not found', unexpected: false };
    if (e.status === 405) {
      const allow = (e as { headers?: Record<string, string> }).headers?.Allow;
      return {
        status: 405,
        message: e.message ?? 'method not allowed',
        ...(allow ? { headers: { Allow: allow } } : {}),
        unexpected: false,
      };
    }
    if (e.status === 415) return { status: 415, message: e.message ?? 'unsupported media type', unexpected: false };
    if (e.status >= 500) {
      // Response validation: the handler broke the contract.
      return { status: 500, message: `internal error (request ${requestId}): reply does not match the spec`, unexpected: true };
    }
    const messages = [...new Set(e.errors.map(describeIssue))];
    return { status: 422, message: messages.join('; '), unexpected: false };
  }
  return { status: 500, message: `internal error (request ${requestId})`, unexpected: true };
}
