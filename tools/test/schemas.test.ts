// Schema quality: typed parameters, fully typed success bodies, and examples that match their schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { asObject, deref, escapePointer, listOperations, loadBundle, type Json, type JsonObject } from './support/spec.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * JSON pointers (inside a bundle) of schemas that may stay untyped on purpose, e.g. a JSON-RPC `result` whose type
 * depends on the method. Each entry needs a reason.
 */
const ALLOWED_UNTYPED: Record<'v2' | 'v3', Record<string, string>> = {
  v2: {},
  v3: {},
};

const COMBINATORS = ['oneOf', 'anyOf', 'allOf', '$ref', 'not', 'if'];
const OBJECT_SHAPES = ['properties', 'additionalProperties', 'patternProperties', 'unevaluatedProperties', 'propertyNames'];

function hasAny(node: JsonObject, keys: string[]): boolean {
  return keys.some((k) => k in node);
}

function typesOf(node: JsonObject): string[] {
  if (typeof node.type === 'string') return [node.type];
  return Array.isArray(node.type) ? node.type.map(String) : [];
}

/**
 * Pointers of untyped schemas reachable from `pointer`: a schema with no type at all (no type, const, enum or
 * combinator), or an object schema that says nothing about its members. Follows $refs once each.
 */
function findUntyped(doc: JsonObject, node: Json, pointer: string, seen: Set<string>, out: string[]): void {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  if (typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) return;
    seen.add(node.$ref);
    findUntyped(doc, deref(doc, node), node.$ref, seen, out);
    return;
  }
  const types = typesOf(node);
  const untypedAny = types.length === 0 && !hasAny(node, [...COMBINATORS, 'const', 'enum']);
  const untypedObject = types.includes('object') && !hasAny(node, [...OBJECT_SHAPES, ...COMBINATORS]);
  if (untypedAny || untypedObject) out.push(pointer);
  for (const [k, child] of Object.entries(node)) {
    if (k === 'properties' || k === 'patternProperties' || k === '$defs') {
      for (const [name, sub] of Object.entries(asObject(child))) findUntyped(doc, sub, `${pointer}/${k}/${escapePointer(name)}`, seen, out);
    } else if (k === 'items' || k === 'additionalProperties' || k === 'not' || k === 'contains' || k === 'unevaluatedProperties') {
      if (typeof child === 'object') findUntyped(doc, child, `${pointer}/${k}`, seen, out);
    } else if (k === 'oneOf' || k === 'anyOf' || k === 'allOf' || k === 'prefixItems') {
      (child as Json[]).forEach((sub, i) => findUntyped(doc, sub, `${pointer}/${k}/${i}`, seen, out));
    }
  }
}

interface ExampleCase {
  where: string;
  /** Pointer of the schema inside the bundle. */
  schemaPointer: string;
  value: Json;
}

/** Media-type examples (request bodies and responses) and parameter examples of every operation. */
function collectExamples(doc: JsonObject): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const fromHolder = (holder: JsonObject, where: string, schemaPointer: string) => {
    if ('example' in holder) cases.push({ where: `${where} example`, schemaPointer, value: holder.example });
    for (const [name, ex] of Object.entries(asObject(holder.examples))) {
      const example = asObject(deref(doc, ex));
      if ('value' in example) cases.push({ where: `${where} examples.${name}`, schemaPointer, value: example.value });
    }
  };
  const fromContent = (content: Json | undefined, where: string, basePointer: string) => {
    for (const [mediaType, media] of Object.entries(asObject(content))) {
      const mt = asObject(media);
      if (mt.schema) fromHolder(mt, `${where} ${mediaType}`, `${basePointer}/content/${escapePointer(mediaType)}/schema`);
    }
  };
  const refOrInline = (raw: Json, inlinePointer: string) =>
    raw && typeof raw === 'object' && !Array.isArray(raw) && typeof raw.$ref === 'string' ? raw.$ref : inlinePointer;

  for (const op of listOperations(doc)) {
    const label = `${op.method.toUpperCase()} ${op.path}`;
    const rawParams = (op.operation.parameters as Json[] | undefined) ?? [];
    rawParams.forEach((raw, i) => {
      const param = asObject(deref(doc, raw));
      const base = refOrInline(raw, `${op.pointer}/parameters/${i}`);
      if (param.schema) fromHolder(param, `${label} parameter ${String(param.name)}`, `${base}/schema`);
    });
    if (op.operation.requestBody) {
      const raw = op.operation.requestBody;
      fromContent(asObject(deref(doc, raw)).content, `${label} request`, refOrInline(raw, `${op.pointer}/requestBody`));
    }
    for (const [status, raw] of Object.entries(asObject(op.operation.responses))) {
      fromContent(asObject(deref(doc, raw)).content, `${label} ${status}`, refOrInline(raw, `${op.pointer}/responses/${status}`));
    }
  }
  return cases;
}

function makeAjv(doc: JsonObject): Ajv2020 {
  // strict: false because the bundle is an OpenAPI document, not a schema (openapi, info, paths, example, …).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc as object, 'bundle');
  return ajv;
}

describe.each(['v2', 'v3'] as const)('%s schemas', (version) => {
  const doc = loadBundle(version);
  const ops = listOperations(doc);

  it('every parameter has a typed schema', () => {
    const untyped = ops.flatMap((op) =>
      op.parameters
        .filter((p) => {
          const schema = asObject(deref(doc, p.schema ?? null));
          return typesOf(schema).length === 0 && !hasAny(schema, [...COMBINATORS, 'const', 'enum']);
        })
        .map((p) => `${op.method.toUpperCase()} ${op.path}: ${String(p.name)}`),
    );
    expect(untyped).toEqual([]);
  });

  it('every operation documents a 200 JSON body with no untyped schema inside', () => {
    const problems: string[] = [];
    for (const op of ops) {
      const label = `${op.method.toUpperCase()} ${op.path}`;
      const ok = asObject(deref(doc, asObject(op.operation.responses)['200']));
      const schema = asObject(asObject(ok.content)['application/json']).schema;
      if (!schema) {
        problems.push(`${label}: no application/json schema for 200`);
        continue;
      }
      const found: string[] = [];
      findUntyped(doc, schema, `${op.pointer}/responses/200/content/application~1json/schema`, new Set(), found);
      for (const pointer of found) if (!(pointer in ALLOWED_UNTYPED[version])) problems.push(`${label}: untyped schema at ${pointer}`);
    }
    expect(problems).toEqual([]);
  });

  it('every example validates against its schema (JSON Schema 2020-12)', () => {
    const ajv = makeAjv(doc);
    const cases = collectExamples(doc);
    const failures: string[] = [];
    for (const c of cases) {
      const validate = ajv.compile({ $ref: `bundle${c.schemaPointer}` });
      if (!validate(c.value)) failures.push(`${c.where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(0);
  });
});
