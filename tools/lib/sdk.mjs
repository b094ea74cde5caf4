// Runs hey-api for one bundle and reads back what it generated, so the server generator and the client table
// use hey-api's own names for functions and types instead of re-deriving its case conversion.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';

/** Pinned hey-api configuration (see research-toolchain.md §2). */
export async function generateSdk(bundlePath, outDir) {
  await createClient({
    input: bundlePath,
    // NodeNext needs explicit extensions; hey-api ignores a relative tsConfigPath, so set the extension here.
    output: { path: outDir, importFileExtension: '.js' },
    logs: { level: 'silent' },
    plugins: ['@hey-api/typescript', { name: '@hey-api/sdk', validator: true }, { name: '@hey-api/client-fetch', baseUrl: false }, 'zod'],
  });
  await avoidDomOnlyTypes(outDir);
}

/**
 * hey-api's fetch client casts to the DOM global `BodyInit`, which a Node-only program (lib ES2023 + @types/node)
 * does not declare. `RequestInit['body']` is the same type and exists in both worlds.
 */
async function avoidDomOnlyTypes(outDir) {
  const file = path.join(outDir, 'client/client.gen.ts');
  const source = await readFile(file, 'utf8');
  const patched = source.replaceAll('as BodyInit | null | undefined', "as RequestInit['body']");
  if (/\bBodyInit\b/.test(patched)) throw new Error(`${file}: unexpected BodyInit use; update avoidDomOnlyTypes`);
  await writeFile(file, patched);
}

/**
 * Parses sdk.gen.ts: for every SDK function, its name, HTTP method, URL and the Data / Responses / Errors type
 * names it was generated with. Keyed by `${method} ${url}`.
 */
export async function readSdkFunctions(outDir) {
  const source = await readFile(path.join(outDir, 'sdk.gen.ts'), 'utf8');
  const functions = new Map();
  for (const chunk of source.split(/^export const /m).slice(1)) {
    const head =
      /^(\w+) = <ThrowOnError[^>]*>\(options\??: Options<(\w+), ThrowOnError>\) => \(options\??\.client \?\? client\)\.(\w+)<(\w+), (\w+), ThrowOnError>/.exec(
        chunk,
      );
    const url = /\burl: '([^']+)'/.exec(chunk);
    if (!head || !url) throw new Error(`cannot parse hey-api output near: ${chunk.slice(0, 120)}`);
    const [, name, dataType, method, responsesType, errorsType] = head;
    functions.set(`${method} ${url[1]}`, {
      name,
      dataType,
      responsesType,
      errorsType: errorsType === 'unknown' ? undefined : errorsType,
    });
  }
  return functions;
}

/** hey-api's runtime folders: the same code in every version's output (the fetch client and its core helpers). */
const RUNTIME_FOLDERS = ['client', 'core'];

async function readTree(dir) {
  const files = new Map();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(
        path.relative(dir, path.join(entry.parentPath, entry.name)),
        await readFile(path.join(entry.parentPath, entry.name), 'utf8'),
      );
  }
  return files;
}

/**
 * hey-api emits its runtime into every version's folder. This keeps one copy, `<sdkDir>/runtime/{client,core}`,
 * after checking the copies are identical, and points each version's own files at it.
 */
export async function shareRuntime(sdkDir, versions) {
  for (const folder of RUNTIME_FOLDERS) {
    const first = await readTree(path.join(sdkDir, versions[0], folder));
    for (const version of versions.slice(1)) {
      const other = await readTree(path.join(sdkDir, version, folder));
      const same = other.size === first.size && [...first].every(([file, text]) => other.get(file) === text);
      if (!same) throw new Error(`hey-api runtime differs between ${versions[0]}/${folder} and ${version}/${folder}; cannot share it`);
    }
  }
  await rm(path.join(sdkDir, 'runtime'), { recursive: true, force: true });
  await mkdir(path.join(sdkDir, 'runtime'));
  for (const folder of RUNTIME_FOLDERS) await rename(path.join(sdkDir, versions[0], folder), path.join(sdkDir, 'runtime', folder));
  for (const version of versions) {
    const dir = path.join(sdkDir, version);
    for (const folder of RUNTIME_FOLDERS) await rm(path.join(dir, folder), { recursive: true, force: true });
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const file = path.join(dir, entry.name);
      const source = await readFile(file, 'utf8');
      const rewritten = source.replace(new RegExp(`from '\\./(${RUNTIME_FOLDERS.join('|')})/`, 'g'), "from '../runtime/$1/");
      if (rewritten !== source) await writeFile(file, rewritten);
    }
  }
}
