import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * JSON request bodies. The common request (`application/json`, UTF-8, not compressed, with a Content-Length within
 * the limit) is read and parsed here directly; everything else (other charsets, compressed or chunked bodies,
 * other media types) goes to body-parser's express.json. body-parser's generality (media-type matching, charset
 * decoding through iconv, raw-body's stream plumbing) cost about as much as the rest of a JSON-RPC call's front
 * door. The results are body-parser's: `{}` for an empty body, strict parsing (an object or an array), the same
 * error types (so one error mapping serves both paths), the limit enforced before reading.
 */
export function jsonBodyReader(options: { limit: number; fallback: RequestHandler }): RequestHandler {
  const { limit, fallback } = options;
  return (req: Request, res: Response, next: NextFunction) => {
    const length = plainJsonLength(req);
    if (length === undefined) return fallback(req, res, next);
    if (length > limit) {
      req.resume();
      return next(bodyError(413, 'request entity too large', 'entity.too.large'));
    }
    readBody(req, length, next);
  };
}

/** Reads one body of `length` bytes into req.body, then calls next (with the error, when it fails). */
function readBody(req: Request, length: number, next: NextFunction): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let settled = false;
  const fail = (err: Error): void => {
    if (settled) return;
    settled = true;
    next(err);
  };
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > length) {
      // Node's parser never delivers more than Content-Length; kept for safety with other transports.
      fail(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
      req.pause();
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (settled) return;
    if (received !== length) return fail(bodyError(400, 'request size did not match content length', 'request.size.invalid'));
    settled = true;
    let text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, received).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    try {
      req.body = parseStrict(text);
    } catch (err) {
      return next(Object.assign(err as Error, { status: 400, type: 'entity.parse.failed' }));
    }
    next();
  });
  // A client that goes away mid-body makes the request emit an 'aborted' error.
  req.on('error', (err: Error) => fail(Object.assign(err, { status: 400, type: 'request.aborted' })));
}

const PLAIN_JSON = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** The Content-Length of a body the fast path can read, or undefined when body-parser must handle it. */
function plainJsonLength(req: Request): number | undefined {
  const type = req.headers['content-type'];
  if (type === undefined || !PLAIN_JSON.test(type)) return undefined;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  if (req.headers['transfer-encoding'] !== undefined) return undefined;
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d{1,10}$/.test(header)) return undefined;
  return Number(header);
}

function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = text.charCodeAt(0);
  // `{` or `[` first is the usual case; otherwise the first non-whitespace character decides.
  if (first !== 0x7b && first !== 0x5b) {
    const firstChar = /\S/.exec(text)?.[0];
    if (firstChar !== '{' && firstChar !== '[') {
      throw new SyntaxError(
        `Unexpected token ${firstChar === undefined ? 'end of input' : `'${firstChar}'`}: a JSON body must be an object or an array`,
      );
    }
  }
  return JSON.parse(text);
}

function bodyError(status: number, message: string, type: string): Error {
  return Object.assign(new Error(message), { status, statusCode: status, type, expose: true });
}
