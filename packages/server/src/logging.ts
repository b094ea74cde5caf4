import pino, { type Logger } from 'pino';

export type { Logger };

/** Replaces the value of `api_key` in a URL's query so that keys never reach a log line. */
export function redactUrl(url: string): string {
  if (!/api_key/i.test(url)) return url;
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[REDACTED]');
}

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'key'], censor: '[REDACTED]' },
    },
    destination,
  );
}
