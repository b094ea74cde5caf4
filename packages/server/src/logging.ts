import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Replaces the value of every query parameter whose decoded name is `api_key` (`api%5Fkey`, `api_%6Bey`, `API_KEY`
 * and the like authenticate or may, so they are all treated as keys), bracketed forms included (`api_key[]`, which
 * the query parser reads as api_key), so that keys never reach a log line.
 */
const KEY_NAME = /^api_key(\[[^\]]*\])*$/;

export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  // Cheap test first: every spelling of the name contains `api` (possibly as %61%70%69) and a `=`.
  if (queryStart < 0 || !/api|%[0-9a-f]{2}/i.test(url.slice(queryStart))) return url;
  const hashStart = url.indexOf('#', queryStart);
  const query = url.slice(queryStart + 1, hashStart < 0 ? undefined : hashStart);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      return KEY_NAME.test(decodedName(rawName).toLowerCase()) ? `${rawName}=[REDACTED]` : pair;
    })
    .join('&');
  return url.slice(0, queryStart + 1) + redacted + (hashStart < 0 ? '' : url.slice(hashStart));
}

function decodedName(raw: string): string {
  const plus = raw.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus).trim();
  } catch {
    return plus;
  }
}

/**
 * Where log lines go by default: stdout (or a file), written asynchronously in batches of about 4 KB, flushed at
 * least every 250 ms and synchronously when the process exits. One synchronous write per line (pino's default)
 * cost about as much as a tenth of a small request under load.
 */
export function logDestination(dest: number | string = 1): pino.DestinationStream {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: 250 });
}

export function createLogger(level = 'info', destination: pino.DestinationStream = logDestination()): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'key'], censor: '[REDACTED]' },
    },
    destination,
  );
}
