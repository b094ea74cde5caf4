import { ApiError, SerializedJson, type RequestContext } from '@tongate/stubs';

/**
 * The request headers of the hosted v3 API that shape a reply rather than select rows: `X-No-Address-Book`,
 * `X-No-Metadata` and `X-Timeout`. The spec lists their values; these functions also run where no validator
 * stood in front (handlers called directly), so they refuse what the spec refuses, naming the header.
 */

/** The words strconv.ParseBool knows, as the hosted API reads these headers. */
const TRUE_WORDS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_WORDS = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** The hosted API never waits longer than this for a read, whatever X-Timeout asks. */
export const MAX_X_TIMEOUT_MS = 3000;

function header(ctx: RequestContext | undefined, name: string): string | undefined {
  const value: unknown = ctx?.headers?.[name];
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  // The validator coerces a header to its schema's type in place (X-Timeout to a number, `1e400` to Infinity).
  return last === undefined ? undefined : String(last);
}

function flag(ctx: RequestContext | undefined, name: string, label: string): boolean {
  const value = header(ctx, name);
  if (value === undefined || value === '') return false;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new ApiError(422, `${label}: must be true or false (1/0, t/f), got '${value.slice(0, 40)}'`);
}

export interface ReplySettings {
  noAddressBook: boolean;
  noMetadata: boolean;
}

export function replySettings(ctx: RequestContext | undefined): ReplySettings {
  return { noAddressBook: flag(ctx, 'x-no-address-book', 'X-No-Address-Book'), noMetadata: flag(ctx, 'x-no-metadata', 'X-No-Metadata') };
}

/**
 * How long this request's reads of the index may take: X-Timeout capped as the hosted API caps it, and never past
 * the service's own read timeout (the database cancels a statement there whatever the header says). Undefined
 * when the header is absent.
 */
export function requestTimeoutMs(ctx: RequestContext | undefined, readTimeoutMs: number | undefined): number | undefined {
  const value = header(ctx, 'x-timeout');
  if (value === undefined || value === '') return undefined;
  if (!/^[0-9]{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2 ** 31 - 1) {
    throw new ApiError(422, `X-Timeout: must be a whole number of milliseconds from 1, got '${value.slice(0, 40)}'`);
  }
  return Math.min(Number(value), MAX_X_TIMEOUT_MS, readTimeoutMs ?? MAX_X_TIMEOUT_MS);
}

/** The reply without the objects the request asked to leave out. */
export function applyReplySettings<R>(reply: R, settings: ReplySettings): R {
  if (!settings.noAddressBook && !settings.noMetadata) return reply;
  const given = (reply as { status?: number; body?: unknown }).body;
  // A body assembled as JSON text is parsed back only when something is to be left out of it.
  const body = given instanceof SerializedJson ? given.toJSON() : given;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return reply;
  if (!(settings.noAddressBook && 'address_book' in body) && !(settings.noMetadata && 'metadata' in body)) return reply;
  const trimmed: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  if (settings.noAddressBook) delete trimmed.address_book;
  if (settings.noMetadata) delete trimmed.metadata;
  return { ...(reply as object), body: trimmed } as R;
}
