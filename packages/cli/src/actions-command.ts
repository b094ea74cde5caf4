import { existsSync } from 'node:fs';
import { classifyTrace, readGoldenFixture, toV3Action } from '@tongate/actions';

export class ActionsUsageError extends Error {}

/**
 * `tongate actions classify <fixture.json>`: classifies the trace of one golden fixture file (format
 * ton-actions-golden/1) and prints its actions — top-level and nested — as a JSON array of /api/v3/actions items
 * (with `accounts`, as include_accounts=true gives them).
 */
export function actionsCommand(args: string[], out: (s: string) => void): void {
  const [sub, file, ...rest] = args;
  if (sub !== 'classify') throw new ActionsUsageError(`unknown actions command '${sub ?? ''}'`);
  if (!file || rest.length) throw new ActionsUsageError('usage: tongate actions classify <fixture.json>');
  if (!existsSync(file)) throw new ActionsUsageError(`no such file: ${file}`);
  let fixture;
  try {
    fixture = readGoldenFixture(file);
  } catch (err) {
    throw new ActionsUsageError(`${file}: ${(err as Error).message}`);
  }
  const actions = classifyTrace(fixture).map((a) => toV3Action(a, { includeAccounts: true }));
  out(JSON.stringify(actions, null, 2));
}
