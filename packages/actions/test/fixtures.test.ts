import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@tongate/testdata';
import { checkFixture, classifyTrace, listGoldenFixtures, readGoldenFixture } from '../src/index.js';
import { KNOWN_GAPS } from './known-gaps.js';

const files = listGoldenFixtures(fixturePath('actions'));

describe('golden fixtures (testdata fixtures/actions) by the README matching rules', () => {
  it('finds all 61 fixtures', () => {
    expect(files.length).toBe(61);
  });

  for (const file of files) {
    const name = basename(file);
    const gap = KNOWN_GAPS[name];
    const run = () => {
      const fixture = readGoldenFixture(file);
      const failures = checkFixture(classifyTrace(fixture), fixture).filter((r) => !r.ok);
      expect(failures.map((f) => `${f.entry.type}: ${f.reason}`)).toEqual([]);
    };
    if (gap) it.fails(`${name} (known gap: ${gap})`, run);
    else it(name, run);
  }

  it('lists only existing fixtures as known gaps', () => {
    const names = new Set(files.map((f) => basename(f)));
    expect(Object.keys(KNOWN_GAPS).filter((n) => !names.has(n))).toEqual([]);
  });
});
