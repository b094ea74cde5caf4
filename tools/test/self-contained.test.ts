/**
 * The repository stands alone: no file refers to a path outside it. The check runs in `npm test`; here it is shown
 * to catch each kind of outside reference, and to pass on the repository as it is.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { findOutsidePaths } from '../check-self-contained.mjs';

const check = (file: string, text: string) => findOutsidePaths([{ path: file, text }]) as string[];

describe('self-contained check', () => {
  it('finds references to the folder beside the repository and to machine paths', () => {
    expect(check('packages/x/test/a.test.ts', "const f = path.resolve(dir, '../../../../shared/fixtures/a.json');")).toEqual([
      'packages/x/test/a.test.ts:1: names ../shared, outside the repository',
      "packages/x/test/a.test.ts:1: ../../../../ climbs above the repository's root",
    ]);
    expect(check('bench/a.ts', "readFileSync('../shared/x')")).toHaveLength(1);
    expect(check('README.md', 'see /work/main/packages')).toEqual(['README.md:1: names the machine path /work/main']);
    expect(check('a.ts', '// built on /home/dev/tongate')).toHaveLength(1);
    expect(check('a.ts', "const p = 'C:\\\\Users\\\\dev\\\\x'")).toHaveLength(1);
    expect(check('packages/a/src/b.ts', "import x from '../../../../outside.js';")).toEqual([
      "packages/a/src/b.ts:1: ../../../../ climbs above the repository's root",
    ]);
  });

  it('lets paths inside the repository through', () => {
    expect(check('packages/a/test/b.test.ts', "import { x } from '../../b/src/c.js'; const p = fixturePath('actions');")).toEqual([]);
    expect(check('README.md', 'curl http://127.0.0.1:8080/api/v2/getMasterchainInfo and /api/v3/ and ./data/x')).toEqual([]);
    expect(check('packages/testdata/NOTICE.md', 'copied from ../shared/fixtures')).toEqual([]);
  });

  it('passes on the repository', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    expect(() => execFileSync('node', ['tools/check-self-contained.mjs'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });
});
