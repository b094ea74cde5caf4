import pino, { type Logger } from 'pino';

export type { Logger };

/** Replaces the value of `api_key` in a URL's query so that keys never reach a log line. */
export function redactUrl(url: string): string {
  if (!/api_key/i.test(url)) return url;
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[REDACTED]');
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
