#!/usr/bin/env node
// spec/ -> generated/ (see tools/CONTRACT.md). Deterministic: the same specs give the same bytes.
//
//   node tools/generate.mjs            regenerate generated/ in place
//   node tools/generate.mjs --check    generate into a temp dir; exit 1 listing files that differ from generated/
//   --spec <dir>  read <dir>/{v2/openapi.yaml,v3/openapi.yaml,jsonrpc/methods.yaml,liteserver/lite_api.tl} instead of spec/
//   --out <dir>   write or compare against <dir> instead of generated/
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bundleSpecs } from './lib/bundle.mjs';
import { diffTrees, syncTrees, writeFiles } from './lib/files.mjs';
import { buildJsonRpcTable, readMethodMap } from './lib/jsonrpc.mjs';
import { buildModel } from './lib/model.mjs';
import { buildInputs } from './lib/decoders.mjs';
import { emitOperations } from './lib/operations.mjs';
import { generateSdk, readSdkFunctions, shareRuntime } from './lib/sdk.mjs';
import { emitServerFiles } from './lib/server.mjs';
import { GENERATED_BANNER } from './lib/emit-util.mjs';
import { generateTlFiles } from './lib/tl.mjs';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** Paths under the output dir that the generator owns; anything else there (package.json, tsconfig, …) is kept. */
export const MANAGED = ['bundles/**', 'sdk/v2/**', 'sdk/v3/**', 'sdk/runtime/**', 'sdk/*.ts', 'server/*.ts', 'liteserver/*.ts'];

export async function generateInto(specDir, outDir) {
  const { v2, v3, methods } = await bundleSpecs({ repoRoot, specDir, bundlesDir: path.join(outDir, 'bundles') });
  const jsonRpcTable = buildJsonRpcTable(v2.doc, readMethodMap(methods));

  await generateSdk(v2.path, path.join(outDir, 'sdk/v2'));
  await generateSdk(v3.path, path.join(outDir, 'sdk/v3'));
  await shareRuntime(path.join(outDir, 'sdk'), ['v2', 'v3']);
  const v2Model = buildModel(v2.doc, await readSdkFunctions(path.join(outDir, 'sdk/v2')), 'v2');
  const v3Model = buildModel(v3.doc, await readSdkFunctions(path.join(outDir, 'sdk/v3')), 'v3');

  await writeFiles(path.join(outDir, 'sdk'), {
    'index.ts': `${GENERATED_BANNER}\nexport * as v2 from './v2/index.js';\nexport * as v3 from './v3/index.js';\nexport * from './operations.js';\n// hey-api's fetch client runtime, emitted once for both versions (runtime/).\nexport { createClient as createFetchClient, type Client as FetchClient } from './runtime/client/index.js';\n`,
    'operations.ts': emitOperations({ v2Model, v3Model, jsonRpcTable }),
  });
  const patterns = new Map();
  const v2Inputs = buildInputs(v2.doc, patterns);
  const v3Inputs = buildInputs(v3.doc, patterns);
  await writeFiles(path.join(outDir, 'server'), emitServerFiles({ v2Model, v3Model, v2Inputs, v3Inputs, patterns, jsonRpcTable }));
  await writeFiles(path.join(outDir, 'liteserver'), await generateTlFiles(specDir));
}

async function main() {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      spec: { type: 'string', default: path.join(repoRoot, 'spec') },
      out: { type: 'string', default: path.join(repoRoot, 'generated') },
    },
  });
  const specDir = path.resolve(values.spec);
  const outDir = path.resolve(values.out);
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'tongate-generate-'));
  try {
    await generateInto(specDir, tmp);
    if (values.check) {
      const differences = await diffTrees(tmp, outDir, MANAGED);
      if (differences.length > 0) {
        console.error(`generated/ is out of date with spec/ (run \`npm run generate\`):`);
        for (const d of differences) console.error(`  ${d.kind.padEnd(8)} ${path.relative(repoRoot, path.join(outDir, d.file))}`);
        process.exitCode = 1;
      } else {
        console.log(`${path.relative(repoRoot, outDir) || outDir} is up to date.`);
      }
    } else {
      const changed = await syncTrees(tmp, outDir, MANAGED);
      console.log(`generated into ${path.relative(repoRoot, outDir) || outDir}: ${changed.length} file(s) changed`);
      for (const d of changed) console.log(`  ${d.kind.padEnd(8)} ${d.file}`);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
