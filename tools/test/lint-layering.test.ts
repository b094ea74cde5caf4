// The lint config (eslint.config.mjs) enforces the package layering: each deliberately broken import below is an
// error at its place, and an allowed import is clean. The probe is linted as the text of an existing file of that
// folder (the file on disk is not touched). The layering cases run without type information (the import rule needs
// none, and a type-checked program per case is slow on a busy machine); the last case runs the whole config.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
// Under CI typescript-eslint builds its program once from the files on disk (single-run inference), which would type
// a probe's text as the file it stands in for; the probe is typed as written here.
const typed = new ESLint({
  cwd: repoRoot,
  overrideConfig: { languageOptions: { parserOptions: { disallowAutomaticSingleRunInference: true } } },
});
const untyped = new ESLint({
  cwd: repoRoot,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false, project: null } },
    rules: Object.fromEntries(
      ['await-thenable', 'no-for-in-array', 'no-implied-eval', 'no-misused-promises', 'only-throw-error', 'restrict-plus-operands'].map(
        (r) => [`@typescript-eslint/${r}`, 'off'],
      ),
    ),
  },
});

async function importErrors(file: string, code: string, eslint = untyped): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const probe = (from: string) => `import * as imported from '${from}';\nexport const probe = imported;\n`;

describe('the layering rule', () => {
  it.each([
    ['packages/handlers-v3/src/indexed/transactions.ts', '@tongate/indexer'],
    ['packages/handlers-v3/src/indexed/transactions.ts', '@tongate/handlers-v2'],
    ['packages/handlers-v3/src/legacy.ts', '@tongate/devnet'],
    ['packages/handlers-v3/test/stack.test.ts', '@tongate/indexer'],
    ['packages/handlers-v2/src/format.ts', '@tongate/liteserver'],
    ['packages/handlers-v2/src/format.ts', '@tongate/indexer'],
    ['packages/read-model/src/wire.ts', '@tongate/indexer'],
    ['packages/read-model/src/wire.ts', '@tongate/handlers-v3'],
    // A domain module is imported by both the indexer and handlers-v3, so it may import neither.
    ['packages/read-model/src/domains/vesting.ts', '@tongate/indexer'],
    ['packages/read-model/src/domains/validators/derive.ts', '@tongate/indexer'],
    ['packages/read-model/src/domains/pools/operations.ts', '@tongate/handlers-v3'],
    ['packages/domain/src/parse.ts', '@tongate/handlers-v2'],
    ['packages/chain/src/lru.ts', '@tongate/server'],
    ['packages/cli/src/format.ts', '../../handlers-v3/src/indexed/transactions.js'],
    ['packages/cli/test/keys.test.ts', '@tongate/read-model/src/wire.js'],
    ['bench/v3.ts', '../packages/indexer/src/writer.js'],
  ])('%s may not import %s', async (file, from) => {
    const errors = await importErrors(file, probe(from));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^no-restricted-imports: /);
  });

  it.each([
    ['packages/handlers-v3/src/indexed/transactions.ts', '@tongate/read-model'],
    ['packages/handlers-v3/src/legacy.ts', '@tongate/domain'],
    ['packages/indexer/src/writer.ts', '@tongate/read-model'],
    ['packages/read-model/src/domains/multisig.ts', '@tongate/contracts'],
    ['packages/cli/src/format.ts', '@tongate/indexer'],
    ['packages/handlers-v3/test/stack.test.ts', '@tongate/devnet'],
    ['packages/read-model/test/address.test.ts', '../src/wire.js'],
  ])('%s may import %s', async (file, from) => {
    expect(await importErrors(file, probe(from))).toEqual([]);
  });

  it('the whole config, type-aware rules included: awaiting a number is an error', async () => {
    const errors = await importErrors(
      'packages/read-model/src/address.ts',
      'export async function f(): Promise<number> {\n  return await 1;\n}\n',
      typed,
    );
    expect(errors).toEqual([expect.stringMatching(/^@typescript-eslint\/await-thenable: /)]);
    // Typing the probe builds the config's one program of the whole repository: tens of seconds on a busy machine.
  }, 240_000);
});
