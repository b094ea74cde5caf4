// Bundles the v2 and v3 specs with the locally installed redocly CLI and reads the JSON-RPC method map.
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';

const run = promisify(execFile);

async function mustExist(file) {
  try {
    await access(file);
  } catch {
    throw new Error(`missing input: ${file}`);
  }
}

async function bundleOne(redocly, input, output) {
  await mustExist(input);
  try {
    await run(redocly, ['bundle', input, '-o', output], { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
  } catch (err) {
    throw new Error(`redocly bundle ${input} failed:\n${err.stderr || err.message}`);
  }
  // Re-serialise so the bytes depend only on the document, not on the bundler's formatting.
  const doc = JSON.parse(await readFile(output, 'utf8'));
  await writeFile(output, `${JSON.stringify(doc, null, 2)}\n`);
  return { path: output, doc };
}

export async function bundleSpecs({ repoRoot, specDir, bundlesDir }) {
  const redocly = path.join(repoRoot, 'node_modules/.bin/redocly');
  await mkdir(bundlesDir, { recursive: true });
  const [v2, v3] = await Promise.all([
    bundleOne(redocly, path.join(specDir, 'v2/openapi.yaml'), path.join(bundlesDir, 'v2.json')),
    bundleOne(redocly, path.join(specDir, 'v3/openapi.yaml'), path.join(bundlesDir, 'v3.json')),
  ]);
  const methodsFile = path.join(specDir, 'jsonrpc/methods.yaml');
  await mustExist(methodsFile);
  const methods = parseYaml(await readFile(methodsFile, 'utf8'));
  return { v2, v3, methods };
}
