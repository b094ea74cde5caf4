// A TL schema (spec/liteserver/lite_api.tl) -> TypeScript codecs (generated/liteserver/). Only what TON's TL uses in
// that schema: bare and boxed constructors, functions, `#` flags with `mode.N?T` fields, `true` flags, vectors.
import { readFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import path from 'node:path';
import { GENERATED_BANNER } from './emit-util.mjs';

const BUILTINS = new Set(['int', 'long', 'int128', 'int256', 'bytes', 'string', 'Bool', 'true', '#']);

/**
 * The TL rule for a constructor id: crc32 (IEEE) of the declaration without its `;`, comments and explicit id, with
 * continuation lines joined, parentheses removed and whitespace collapsed. An explicit `name#xxxxxxxx` wins.
 */
export function tlConstructorId(declaration) {
  const explicit = /^[\w.]+#([0-9a-f]{8})\b/.exec(declaration.trim());
  if (explicit) return parseInt(explicit[1], 16);
  const text = declaration
    .replace(/\/\/.*$/gm, ' ')
    .replace(/;\s*$/, '')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return crc32(Buffer.from(text, 'utf8')) >>> 0;
}

/** Declarations of a schema: { kind: 'type' | 'function', name, id, fields: [{ name, type }], result }. */
export function parseTlSchema(text) {
  const out = [];
  let kind = 'type';
  let pending = '';
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (line === '---functions---') {
      kind = 'function';
      continue;
    }
    if (line === '---types---') {
      kind = 'type';
      continue;
    }
    pending = pending ? `${pending} ${line}` : line;
    if (!pending.endsWith(';')) continue;
    const decl = pending;
    pending = '';
    const m = /^([\w.]+)(?:#([0-9a-f]{8}))?\s*(.*?)\s*=\s*([\w.]+)\s*;$/.exec(decl);
    if (!m) throw new Error(`cannot parse TL declaration: ${decl}`);
    const [, name, , body, result] = m;
    const fields = [];
    for (const token of body.match(/[\w]+:(?:\([^)]*\)|[^\s]+)/g) ?? []) {
      const colon = token.indexOf(':');
      fields.push({ name: token.slice(0, colon), type: parseFieldType(token.slice(colon + 1)) });
    }
    out.push({ kind, name, id: tlConstructorId(decl), fields, result });
  }
  if (pending) throw new Error(`unterminated TL declaration: ${pending}`);
  return out;
}

function parseFieldType(text) {
  const flag = /^(\w+)\.(\d+)\?(.+)$/.exec(text);
  if (flag) return { flag: { field: flag[1], bit: Number(flag[2]) }, ...parseFieldType(flag[3]) };
  const vector = /^\(vector ([\w.#]+)\)$/.exec(text);
  if (vector) return { vector: parseFieldType(vector[1]) };
  return { name: text };
}

const pascal = (tlName) =>
  tlName
    .split('.')
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('');
const camel = (snake) => snake.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const hex = (id) => `0x${id.toString(16).padStart(8, '0')}`;

export function emitTlCodecs(decls) {
  const types = decls.filter((d) => d.kind === 'type');
  const functions = decls.filter((d) => d.kind === 'function');
  const byName = new Map(types.map((d) => [d.name, d]));
  const constructorsOf = new Map();
  for (const d of types) constructorsOf.set(d.result, [...(constructorsOf.get(d.result) ?? []), d]);
  const tagged = (d) => (constructorsOf.get(d.result)?.length ?? 0) > 1;
  const boxedName = (typeName) => {
    const cs = constructorsOf.get(typeName);
    if (!cs) throw new Error(`TL type ${typeName} has no constructor in the schema`);
    return cs.length > 1 ? pascal(typeName) : pascal(cs[0].name);
  };

  const tsType = (t) => {
    if (t.vector) return `${tsType(t.vector)}[]`;
    switch (t.name) {
      case 'int':
      case '#':
        return 'number';
      case 'long':
        return 'bigint';
      case 'int128':
      case 'int256':
      case 'bytes':
        return 'Buffer';
      case 'string':
        return 'string';
      case 'Bool':
        return 'boolean';
      case 'true':
        return 'true';
    }
    if (byName.has(t.name)) return pascal(t.name);
    return boxedName(t.name);
  };
  const write = (t, expr, indent) => {
    if (t.vector) {
      return `${indent}w.int(${expr}.length);\n${indent}for (const item of ${expr}) {\n${write(t.vector, 'item', indent + '  ')}${indent}}\n`;
    }
    switch (t.name) {
      case 'int':
      case '#':
        return `${indent}w.int(${expr});\n`;
      case 'long':
        return `${indent}w.long(${expr});\n`;
      case 'int128':
        return `${indent}w.raw(${expr}, 16);\n`;
      case 'int256':
        return `${indent}w.raw(${expr}, 32);\n`;
      case 'bytes':
        return `${indent}w.bytes(${expr});\n`;
      case 'string':
        return `${indent}w.string(${expr});\n`;
      case 'Bool':
        return `${indent}w.bool(${expr});\n`;
      case 'true':
        return '';
    }
    if (byName.has(t.name)) return `${indent}write${pascal(t.name)}(w, ${expr});\n`;
    return `${indent}writeBoxed${boxedName(t.name)}(w, ${expr});\n`;
  };
  const read = (t) => {
    if (t.vector) return `Array.from({ length: r.count(${minSize(t.vector)}) }, () => ${read(t.vector)})`;
    switch (t.name) {
      case 'int':
        return 'r.int()';
      case '#':
        return 'r.uint()';
      case 'long':
        return 'r.long()';
      case 'int128':
        return 'Buffer.from(r.raw(16))';
      case 'int256':
        return 'Buffer.from(r.raw(32))';
      case 'bytes':
        return 'r.bytes()';
      case 'string':
        return 'r.string()';
      case 'Bool':
        return 'r.bool()';
      case 'true':
        return 'true as const';
    }
    if (byName.has(t.name)) return `read${pascal(t.name)}(r)`;
    return `readBoxed${boxedName(t.name)}(r)`;
  };
  const minSize = (t) => (t.name === 'long' ? 8 : t.name === 'int256' ? 32 : t.name === 'int128' ? 16 : 4);

  const fieldsInterface = (d, extra = '') => {
    const lines = d.fields.map((f) => `  ${camel(f.name)}${f.type.flag ? '?' : ''}: ${tsType(f.type)};`);
    return `{\n${extra}${lines.join('\n')}${lines.length ? '\n' : ''}}`;
  };
  const writeBody = (d) =>
    d.fields
      .map((f) => {
        const expr = `v.${camel(f.name)}`;
        if (!f.type.flag) return write(f.type, expr, '  ');
        const cond = `((v.${camel(f.type.flag.field)} >>> ${f.type.flag.bit}) & 1) !== 0`;
        if (f.type.name === 'true') return '';
        return `  if (${cond}) {\n    if (${expr} === undefined) throw new TlError('${d.name}: ${f.name} is required by ${f.type.flag.field} bit ${f.type.flag.bit}');\n${write(f.type, expr, '    ')}  }\n`;
      })
      .join('');
  const readBody = (d, tag) => {
    const lines = d.fields.map((f) => {
      const local = `f_${f.name}`;
      if (!f.type.flag) return `  const ${local} = ${read(f.type)};\n`;
      const cond = `((f_${f.type.flag.field} >>> ${f.type.flag.bit}) & 1) !== 0`;
      return `  const ${local} = ${cond} ? ${read(f.type)} : undefined;\n`;
    });
    const props = d.fields.map((f) => `${camel(f.name)}: f_${f.name}`);
    if (tag) props.unshift(`_: '${d.name}'`);
    return `${lines.join('')}  return { ${props.join(', ')} };\n`;
  };

  let out = `${GENERATED_BANNER}\n// Source: spec/liteserver/lite_api.tl (tools/lib/tl.mjs).\n/* eslint-disable */\nimport { TlError, type TlFunction, type TlReader, type TlWriter } from './runtime.js';\n\n`;
  out += `/** Constructor ids by TL name (crc32 of the schema line, or its explicit #id). */\nexport const TL_ID = {\n`;
  for (const d of decls) out += `  '${d.name}': ${hex(d.id)},\n`;
  out += `} as const;\n\n`;

  for (const d of types) {
    const T = pascal(d.name);
    const tag = tagged(d);
    out += `/** \`${d.name}\` (${hex(d.id)}) = ${d.result} */\nexport interface ${T} ${fieldsInterface(d, tag ? `  _: '${d.name}';\n` : '')}\n`;
    out += `export function write${T}(w: TlWriter, v: ${T}): void {\n${writeBody(d) || '  void w;\n  void v;\n'}}\n`;
    out += `export function read${T}(r: TlReader): ${T} {\n${d.fields.length ? '' : '  void r;\n'}${readBody(d, tag)}}\n\n`;
  }
  for (const [typeName, cs] of constructorsOf) {
    const B = boxedName(typeName);
    if (cs.length > 1) out += `/** Boxed \`${typeName}\`. */\nexport type ${B} = ${cs.map((c) => pascal(c.name)).join(' | ')};\n`;
    out += `export function writeBoxed${B}(w: TlWriter, v: ${B}): void {\n`;
    if (cs.length === 1) out += `  w.int(${hex(cs[0].id)});\n  write${B}(w, v);\n`;
    else {
      out += `  switch (v._) {\n`;
      for (const c of cs) out += `    case '${c.name}':\n      w.int(${hex(c.id)});\n      write${pascal(c.name)}(w, v);\n      return;\n`;
      out += `  }\n`;
    }
    out += `}\nexport function readBoxed${B}(r: TlReader): ${B} {\n  const id = r.uint();\n`;
    for (const c of cs) out += `  if (id === ${hex(c.id)}) return read${pascal(c.name)}(r);\n`;
    out += `  throw new TlError(\`expected ${typeName}, got constructor 0x\${id.toString(16)}\`);\n}\n\n`;
  }
  for (const d of functions) {
    const P = pascal(d.name);
    const fn = camel(P.charAt(0).toLowerCase() + P.slice(1));
    const objectResult = d.result === 'Object';
    const R = objectResult ? 'Buffer' : boxedName(d.result);
    out += `/** Function \`${d.name}\` (${hex(d.id)}) → ${d.result} */\nexport interface ${P} ${fieldsInterface(d)}\n`;
    out += `export const ${fn}: TlFunction<${P}, ${R}> = {\n  name: '${d.name}',\n  id: ${hex(d.id)},\n`;
    out += `  write(w, v) {\n    w.int(${hex(d.id)});\n${writeBody(d).replace(/^/gm, '  ').replace(/^  $/gm, '')}${d.fields.length ? '' : '    void v;\n'}  },\n`;
    out += `  readParams(r) {\n${d.fields.length ? '' : '    void r;\n'}${readBody(d, false).replace(/^/gm, '  ').replace(/^  $/gm, '')}  },\n`;
    if (objectResult) {
      out += `  writeResult(w, v) {\n    w.raw(v);\n  },\n  readResult(r) {\n    return r.raw(r.remaining);\n  },\n};\n\n`;
    } else {
      out += `  writeResult(w, v) {\n    writeBoxed${R}(w, v);\n  },\n  readResult(r) {\n    return readBoxed${R}(r);\n  },\n};\n\n`;
    }
  }
  out += `/** Every function by constructor id (what a server dispatches on). */\nexport const TL_FUNCTIONS: ReadonlyMap<number, TlFunction<any, any>> = new Map<number, TlFunction<any, any>>([\n`;
  for (const d of functions) {
    const P = pascal(d.name);
    out += `  [${hex(d.id)}, ${camel(P.charAt(0).toLowerCase() + P.slice(1))}],\n`;
  }
  out += `]);\n`;
  return out;
}

/** The files of generated/liteserver/ (the runtime is copied from tools/lib/tl-runtime.ts). */
export async function generateTlFiles(specDir) {
  const schema = await readFile(path.join(specDir, 'liteserver/lite_api.tl'), 'utf8');
  const runtime = await readFile(path.join(import.meta.dirname, 'tl-runtime.ts'), 'utf8');
  return {
    'runtime.ts': `${GENERATED_BANNER}\n// Copied from tools/lib/tl-runtime.ts.\n${runtime}`,
    'lite-api.ts': emitTlCodecs(parseTlSchema(schema)),
    'index.ts': `${GENERATED_BANNER}\nexport * from './runtime.js';\nexport * from './lite-api.js';\n`,
  };
}
