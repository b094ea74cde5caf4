/**
 * Per-action-type pass counts over the golden fixtures (packages/testdata/fixtures/actions), as a markdown table:
 *
 *   npm run pass-table -w @tongate/actions        (or: npx tsx packages/actions/scripts/pass-table.ts)
 *
 * An expected entry passes when the classifier's output satisfies it by the fixtures' README rules; a fixture
 * passes when all its entries do. Failing fixtures are listed with the first reason.
 */
import { basename } from 'node:path';
import { checkFixture, classifyTrace, listGoldenFixtures, readGoldenFixture } from '../src/index.js';
import { fixturePath } from '@tongate/testdata';

const perType = new Map<string, { entries: number; passed: number; cases: Set<string> }>();
const failing: string[] = [];
let fixturesPassed = 0;
const files = listGoldenFixtures(fixturePath('actions'));
for (const file of files) {
  const fixture = readGoldenFixture(file);
  const results = checkFixture(classifyTrace(fixture), fixture);
  const name = basename(file);
  if (results.every((r) => r.ok)) fixturesPassed++;
  else failing.push(`- \`${name}\`: ${results.find((r) => !r.ok)!.reason}`);
  for (const r of results) {
    const row = perType.get(r.entry.type) ?? { entries: 0, passed: 0, cases: new Set<string>() };
    row.entries++;
    row.cases.add(name);
    if (r.ok) row.passed++;
    perType.set(r.entry.type, row);
  }
}

const lines = ['| action type | expected entries passing | fixtures |', '|---|---:|---:|'];
let entries = 0;
let passed = 0;
for (const [type, row] of [...perType.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  lines.push(`| \`${type}\` | ${row.passed} / ${row.entries} | ${row.cases.size} |`);
  entries += row.entries;
  passed += row.passed;
}
lines.push(`| **total** | **${passed} / ${entries}** | **${fixturesPassed} / ${files.length} fixtures pass** |`);
console.log(lines.join('\n'));
if (failing.length) console.log(`\nFailing fixtures:\n${failing.join('\n')}`);
