#!/usr/bin/env node
// npm run pack [-- --out DIR]: @tongate/client as another project installs it. The client and the generated SDK
// (@tongate/sdk, bundled inside the tarball) are compiled to ESM with type declarations in a staging folder,
// each with a package.json whose exports point at that JavaScript, and `npm pack` packs the result. In the
// repository both packages keep exporting their TypeScript sources (tsx and vitest run them directly).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const clientDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(clientDir, '../..');
const sdkDir = path.join(repoRoot, 'generated/sdk');
const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = path.resolve(values.out ?? clientDir);

const LICENSE = 'MIT';
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const client = readJson(path.join(clientDir, 'package.json'));
const sdk = readJson(path.join(sdkDir, 'package.json'));

const stage = path.join(clientDir, '.pack');
const sdkStage = path.join(stage, 'node_modules/@tongate/sdk');
rmSync(stage, { recursive: true, force: true });
mkdirSync(sdkStage, { recursive: true });

const compiled = { types: './dist/index.d.ts', default: './dist/index.js' };
const compile = (tsconfig) => execFileSync(tsc, ['-p', tsconfig], { stdio: 'inherit' });

// The SDK: its own build settings, plus declarations, into the staged copy.
writeJson(path.join(stage, 'tsconfig.sdk.json'), {
  extends: path.join(sdkDir, 'tsconfig.build.json'),
  compilerOptions: {
    outDir: path.join(sdkStage, 'dist'),
    rootDir: sdkDir,
    declaration: true,
    sourceMap: false,
    incremental: false,
    tsBuildInfoFile: null,
  },
  include: ['*.ts', 'v2/**/*.ts', 'v3/**/*.ts', 'runtime/**/*.ts'].map((p) => path.join(sdkDir, p)),
});
compile(path.join(stage, 'tsconfig.sdk.json'));
writeJson(path.join(sdkStage, 'package.json'), {
  name: sdk.name,
  version: sdk.version,
  description: sdk.description,
  license: LICENSE,
  type: 'module',
  exports: { '.': compiled },
  dependencies: sdk.dependencies,
});

// The client, compiled against the staged SDK's declarations.
writeJson(path.join(stage, 'tsconfig.client.json'), {
  extends: path.join(clientDir, 'tsconfig.build.json'),
  compilerOptions: {
    outDir: path.join(stage, 'dist'),
    rootDir: path.join(clientDir, 'src'),
    declaration: true,
    sourceMap: false,
    incremental: false,
    tsBuildInfoFile: null,
    paths: { '@tongate/sdk': [path.join(sdkStage, 'dist/index.d.ts')] },
  },
  include: [path.join(clientDir, 'src/**/*.ts')],
});
compile(path.join(stage, 'tsconfig.client.json'));
writeJson(path.join(stage, 'package.json'), {
  name: client.name,
  version: client.version,
  description: client.description,
  license: LICENSE,
  type: 'module',
  engines: { node: '>=20' },
  exports: { '.': compiled },
  files: ['dist'],
  // The SDK travels inside the tarball; zod, which it needs, comes from the registry.
  dependencies: { [sdk.name]: sdk.version, ...sdk.dependencies },
  bundleDependencies: [sdk.name],
});
cpSync(path.join(clientDir, 'README.md'), path.join(stage, 'README.md'));

mkdirSync(outDir, { recursive: true });
const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', outDir], { cwd: stage, encoding: 'utf8' }));
console.log(path.join(outDir, packed[0].filename));
