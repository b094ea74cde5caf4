/**
 * Classification rate: how many traces per second the action classifier handles, over the golden fixtures
 * (61 real mainnet traces, 554 transactions).
 *
 *   npm run bench:actions     (tsx bench/actions.ts; a few seconds, writes bench/results/actions.json)
 *
 * How it measures: bench/classification.ts (bench:v3 reports the same figure).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureClassificationRate } from './classification.js';

const result = {
  bench: 'actions',
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
  ...measureClassificationRate(),
};
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'actions.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `classification: ${result.traces_per_second.best} traces/s best, ${result.traces_per_second.median} median (${result.transactions_per_second.best} transactions/s) → ${out}`,
);
