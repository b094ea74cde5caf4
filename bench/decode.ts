/**
 * /decode costs, in process: how long the message schemes take to parse (paid once at startup), and how many real
 * mainnet bodies per second decode (every body of the shared action fixtures, in rounds; the best round counts, the
 * median beside it). Writes bench/results/decode.json.   Usage: npm run bench:decode [-- --rounds 5]
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Cell } from '@ton/core';
import { DEFAULT_MESSAGE_SCHEMES, MessageSchemes, parseTlb } from '@tongate/tlb';
import { fixturePath } from '@tongate/testdata';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Math.max(1, Number(values.rounds));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = fixturePath('actions');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const source = readFileSync(DEFAULT_MESSAGE_SCHEMES, 'utf8');
const parseMs: number[] = [];
for (let i = 0; i < 10; i++) {
  const t = performance.now();
  parseTlb(source);
  parseMs.push(performance.now() - t);
}
const schemes = MessageSchemes.fromFile();

const bodies: Cell[] = [];
for (const file of readdirSync(fixturesDir).filter((f) => f.endsWith('.json'))) {
  const fixture = JSON.parse(readFileSync(path.join(fixturesDir, file), 'utf8')) as {
    transactions: { messages: { body: string | null }[] }[];
  };
  for (const tx of fixture.transactions) for (const m of tx.messages) if (m.body) bodies.push(Cell.fromBase64(m.body));
}

const decoded = bodies.filter((body) => schemes.decodeBody(body).ok).length;
const perRound: number[] = [];
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 1000) {
    for (const body of bodies) schemes.decodeBody(body);
    n += bodies.length;
  }
  perRound.push(Math.round(n / ((performance.now() - start) / 1000)));
}

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  schemeConstructors: schemes.constructors.length,
  // The first parse is the one a starting process pays (cold JIT); the rest show the parser's own speed.
  schemeParseMs: { first: parseMs[0], best: Math.min(...parseMs), median: median(parseMs) },
  fixtureBodies: bodies.length,
  fixtureBodiesDecoded: decoded,
  bodiesPerSecond: { best: Math.max(...perRound), median: median(perRound), rounds: perRound },
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/decode.json'), JSON.stringify(result, null, 2) + '\n');
