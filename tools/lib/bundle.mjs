// Bundles the v2 and v3 specs with the locally installed redocly CLI and reads the JSON-RPC method map.
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { deref, jsonRequestSchema, listOperations } from './spec-walk.mjs';

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
    await run(redocly, ['bundle', input, '-o', output], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  } catch (err) {
    throw new Error(`redocly bundle ${input} failed:\n${err.stderr || err.message}`);
  }
  // Re-serialise so the bytes depend only on the document, not on the bundler's formatting.
  const doc = JSON.parse(await readFile(output, 'utf8'));
  allowNullForOptionalBodyFields(doc);
  await writeFile(output, `${JSON.stringify(doc, null, 2)}\n`);
  return { path: output, doc };
}

/** A property schema that also accepts JSON null. */
function orNull(schema) {
  if (Array.isArray(schema.type)) return schema.type.includes('null') ? schema : { ...schema, type: [...schema.type, 'null'] };
  if (typeof schema.type === 'string' && !schema.$ref) return { ...schema, type: [schema.type, 'null'] };
  const { description, default: fallback, ...rest } = schema;
  return {
    ...(description !== undefined ? { description } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    anyOf: [rest, { type: 'null' }],
  };
}

/**
 * toncenter reads a JSON null in an optional request-body field as "not given" (\`"stack": null\` runs with no
 * arguments), so every optional property of a JSON request body accepts null; the decoders then treat it as absent.
 */
function allowNullForOptionalBodyFields(doc) {
  const done = new Set();
  for (const op of listOperations(doc)) {
    const body = jsonRequestSchema(doc, op.operation);
    if (!body) continue;
    const schema = deref(doc, body);
    if (done.has(schema) || schema.type !== 'object' || !schema.properties) continue;
    done.add(schema);
    const required = new Set(schema.required ?? []);
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!required.has(name)) schema.properties[name] = orNull(property);
    }
  }
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
