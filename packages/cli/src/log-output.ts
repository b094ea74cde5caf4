import { createLogger, logDestination, type Config, type Logger } from '@tongate/server';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/**
 * One pino JSON line as a person reads it: `12:04:05.123 INFO  message  key=value …`, an error's stack on the lines
 * below. A line that is not JSON passes through unchanged.
 */
export function readableLogLine(line: string, colour = false): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const { level, time, msg, err, ...fields } = record;
  const levelNumber = typeof level === 'number' ? level : 30;
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const name = (LEVELS[levelNumber] ?? String(level)).padEnd(5);
  const tint = colour && COLOURS[levelNumber] ? (s: string) => `${COLOURS[levelNumber]}${s}\x1b[0m` : (s: string) => s;
  const pairs = Object.entries(fields)
    .map(([k, v]) => `${k}=${fieldText(v)}`)
    .join(' ');
  let text = `${clock} ${tint(name)} ${typeof msg === 'string' ? msg : ''}${pairs ? `  ${pairs}` : ''}\n`;
  if (err && typeof err === 'object') {
    const e = err as { stack?: string; message?: string };
    text += `${(e.stack ?? e.message ?? JSON.stringify(err)).replace(/^/gm, '    ')}\n`;
  }
  return text;
}

/** Whether the configuration asks for readable lines: `pretty`, or `auto` with a terminal on stdout. */
export function wantsReadableLogs(format: Config['logFormat'], stdoutIsTerminal = process.stdout.isTTY === true): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

/**
 * The process logger: pino's JSON lines for collectors, or the same records written readably for a person at a
 * terminal (the batching destination underneath either way, so a readable log costs no synchronous writes).
 */
export function processLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): Logger {
  if (!wantsReadableLogs(config.logFormat)) return createLogger(config.logLevel);
  const sink = logDestination();
  const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const readable = {
    write: (line: string) => sink.write(readableLogLine(line, colour)),
    // logger.flush() reaches the destination underneath.
    flush: (cb?: (err?: Error) => void) => (sink as { flush?: (cb?: (err?: Error) => void) => void }).flush?.(cb),
  };
  return createLogger(config.logLevel, readable);
}
