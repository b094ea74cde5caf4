// The input boundary: for every operation, the typed input its handler receives (`V2Inputs` / `V3Inputs`) and the
// decoder that builds it from a request that passed validation (`v2Decoders` / `v3Decoders`). Each parameter's kind
// comes from its schema: integers and booleans by type, strings by what their pattern accepts (an address pattern
// accepts a raw and a user-friendly address, a hash pattern 64 hex digits, …), lists by their items. Defaults are
// copied from the spec, so a handler never writes one. See tools/CONTRACT.md.
import { deref, jsonRequestSchema, listOperations } from './spec-walk.mjs';
import { doc, key, str } from './emit-util.mjs';

// Sample texts a pattern is tried against to learn which kind of value it describes.
const RAW_ADDRESS = `0:${'ab'.repeat(32)}`;
const FRIENDLY_ADDRESS = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
const HEX64 = 'ab'.repeat(32);
const SHORT = 'abcd';
const NEGATIVE_DECIMAL = '-12';
const WIDE_HEX = '0x8000000000000000';
const OPCODE_HEX = '0x7362d09c';

function kindOfPattern(pattern) {
  const re = new RegExp(pattern);
  const accepts = (text) => re.test(text);
  if (accepts(RAW_ADDRESS) && accepts(FRIENDLY_ADDRESS) && !accepts(SHORT)) return accepts('null') ? 'addressOrNull' : 'address';
  if (accepts(HEX64) && !accepts(SHORT) && !accepts(RAW_ADDRESS)) return 'hash';
  if (accepts(WIDE_HEX) && accepts(NEGATIVE_DECIMAL)) return 'shard';
  if (accepts(OPCODE_HEX) && accepts(NEGATIVE_DECIMAL) && !accepts(WIDE_HEX)) return 'opcode';
  if (accepts(NEGATIVE_DECIMAL) && accepts('123') && !accepts('0x1') && !accepts('abc')) return 'int64';
  return 'pass';
}

const LIST_KINDS = { address: 'addressList', hash: 'hashList', pass: 'stringList' };

/** The decode kind of a parameter schema (`pass`: handed over as validated, typed as the SDK types it). */
export function kindOf(doc, schema, patterns) {
  if (!schema || typeof schema !== 'object') return 'pass';
  if (Array.isArray(schema.anyOf)) {
    // An optional body field that also accepts null (bundle.mjs) decodes as its non-null member; null is "not given".
    const members = schema.anyOf.filter((s) => !(s && s.type === 'null' && Object.keys(s).length === 1));
    if (members.length === 1) return kindOf(doc, members[0], patterns);
    const kinds = new Set(members.map((s) => kindOf(doc, s, patterns)));
    return kinds.size === 2 && kinds.has('hash') && kinds.has('address') ? 'accountId' : 'pass';
  }
  const s = deref(doc, schema);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'integer') return s.format === 'int64' ? 'int64' : 'int32';
  if (type === 'boolean') return 'bool';
  if (type === 'array') {
    const item = deref(doc, s.items ?? {});
    const itemKind = kindOf(doc, s.items, patterns);
    if (itemKind === 'pass' && item.type !== 'string') return 'pass';
    return LIST_KINDS[itemKind] ?? 'pass';
  }
  if (type === 'string' && typeof s.pattern === 'string' && !s.enum) {
    const kind = kindOfPattern(s.pattern);
    if (kind !== 'pass') patterns.set(s.pattern, kind);
    return kind;
  }
  return 'pass';
}

const TS_TYPES = {
  address: 'Address',
  addressOrNull: 'Address | null',
  addressList: 'Address[]',
  hash: 'Buffer',
  hashList: 'Buffer[]',
  accountId: 'Buffer',
  int64: 'bigint',
  shard: 'bigint',
  opcode: 'number',
  int32: 'number',
  bool: 'boolean',
  stringList: 'string[]',
};

/** The spec's default as a TypeScript literal of the decoded type. */
function defaultLiteral(kind, value) {
  if (kind === 'int64' || kind === 'shard') return `${BigInt(value)}n`;
  if (kind === 'stringList') return JSON.stringify(Array.isArray(value) ? value : [value]);
  if (kind === 'pass' || kind === 'int32' || kind === 'bool') return JSON.stringify(value);
  throw new Error(`a default for a parameter of kind ${kind} is not supported`);
}

function defaultOf(doc, schema) {
  if (schema && 'default' in schema) return { value: schema.default };
  const s = deref(doc, schema ?? {});
  return s && 'default' in s ? { value: s.default } : undefined;
}

/** Parameter-level override of the kind (`x-tongate-decode: stringList`), for a handler that must see the text as given. */
const OVERRIDE = 'x-tongate-decode';

function checkedOverride(kind) {
  if (kind !== undefined && !(kind in TS_TYPES)) throw new Error(`${OVERRIDE}: unknown kind ${kind}`);
  return kind;
}

function fieldsOfPart(doc, entries, patterns) {
  return entries.map(({ name, schema, required, override }) => ({
    name,
    kind: checkedOverride(override) ?? kindOf(doc, schema, patterns),
    required,
    fallback: defaultOf(doc, schema),
  }));
}

/** Per operation: its query, body and path fields with their kinds. */
export function buildInputs(docJson, patterns) {
  const inputs = new Map();
  for (const op of listOperations(docJson)) {
    const parts = {};
    for (const where of ['query', 'path']) {
      const params = op.parameters.filter((p) => p.in === where);
      if (params.length > 0) {
        parts[where] = fieldsOfPart(
          docJson,
          params.map((p) => ({ name: p.name, schema: p.schema, required: Boolean(p.required), override: p[OVERRIDE] })),
          patterns,
        );
      }
    }
    const body = jsonRequestSchema(docJson, op.operation);
    if (body) {
      const s = deref(docJson, body);
      const required = new Set(s.required ?? []);
      parts.body = fieldsOfPart(
        docJson,
        Object.entries(s.properties ?? {}).map(([name, schema]) => ({ name, schema, required: required.has(name) })),
        patterns,
      );
    }
    inputs.set(op.operationId, parts);
  }
  return inputs;
}

function fieldType(field, sdkPart) {
  return field.kind === 'pass' ? `NonNullable<${sdkPart}[${str(field.name)}]>` : TS_TYPES[field.kind];
}

function inputType(op, parts, ns) {
  const lines = [];
  for (const [where, fields] of Object.entries(parts)) {
    const sdkPart = `NonNullable<${ns}.${op.sdk.dataType}[${str(where)}]>`;
    const members = fields.map((f) => `      ${key(f.name)}${f.required || f.fallback ? '' : '?'}: ${fieldType(f, sdkPart)};`);
    lines.push(`    ${where}: {\n${members.join('\n')}\n    };`);
  }
  lines.push('    ctx: RequestContext;');
  return `{\n${lines.join('\n')}\n  }`;
}

function decodeExpression(field, source, sdkPart) {
  const value = `${source}[${str(field.name)}]`;
  const converted =
    field.kind === 'pass' ? `(${value} as ${fieldType(field, sdkPart)})` : `decode.${field.kind}(${str(field.name)}, ${value})`;
  if (field.required) return converted;
  const absent = field.fallback ? defaultLiteral(field.kind, field.fallback.value) : 'undefined';
  return `given(${value}) ? ${converted} : ${absent}`;
}

function decoderFunction(op, parts, ns) {
  const entries = Object.entries(parts);
  if (entries.length === 0) return `(_raw, ctx) => ({ ctx })`;
  const locals = entries.map(([where]) => `    const ${where} = fieldsOf(raw.${where});`);
  const fields = entries.map(([where, fields]) => {
    const sdkPart = `NonNullable<${ns}.${op.sdk.dataType}[${str(where)}]>`;
    const members = fields.map((f) => `        ${key(f.name)}: ${decodeExpression(f, where, sdkPart)},`);
    return `      ${where}: {\n${members.join('\n')}\n      },`;
  });
  return `(raw, ctx) => {\n${locals.join('\n')}\n    return {\n${fields.join('\n')}\n      ctx,\n    };\n  }`;
}

/** The V2Inputs/V3Inputs interface and the v2Decoders/v3Decoders table, for the operations handlers serve. */
export function emitInputs({ version, model, inputs }) {
  const V = version.toUpperCase();
  const types = model.map(
    (op) =>
      doc(`${op.method.toUpperCase()} ${op.path}`, '  ') +
      `  ${key(op.operationId)}: ${inputType(op, inputs.get(op.operationId), version)};\n`,
  );
  const decoders = model.map((op) => `  ${key(op.operationId)}: ${decoderFunction(op, inputs.get(op.operationId), version)},\n`);
  return `/** What each ${version} handler receives: its parameters decoded to their types (spec defaults applied), and the context. */
export interface ${V}Inputs {
${types.join('')}}

/** Per operation, the decoder from a request that passed validation to the handler's input (422 ApiError on a bad value). */
export const ${version}Decoders: { readonly [K in keyof ${V}Inputs]: (raw: RawRequest, ctx: RequestContext) => ${V}Inputs[K] } = {
${decoders.join('')}};
`;
}

/** patterns.ts: each spec pattern a decoder kind stands for -> what to tell a person whose value does not match it. */
export function emitPatternTexts(patterns) {
  const rows = [...patterns.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pattern, kind]) => `  [${JSON.stringify(pattern)}, EXPECTED.${kind}],`);
  return `import { EXPECTED } from './decode.js';

/** Spec pattern -> why a value failed it, in words (the front door answers this instead of quoting the pattern). */
export const patternTexts: ReadonlyMap<string, string> = new Map([
${rows.join('\n')}
]);
`;
}
