// Builds the JSON-RPC table (emitted once, as server/jsonrpc.ts): JSON-RPC method -> { operationId, in, params } where params is a standalone JSON
// Schema (2020-12) of the `params` object, derived from the operation's query parameters or JSON request body.
import { deref, jsonRequestSchema, listOperations } from './spec-walk.mjs';

const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

/** Reads methods.yaml in either shape: `{ methods: { name: operationId } }` or a flat `{ name: operationId }`;
 * a value may also be `{ operationId }`. */
export function readMethodMap(methodsDoc) {
  const raw = methodsDoc && typeof methodsDoc.methods === 'object' ? methodsDoc.methods : methodsDoc;
  if (!raw || typeof raw !== 'object') throw new Error('spec/jsonrpc/methods.yaml: expected a map of method -> operationId');
  const map = {};
  for (const [method, value] of Object.entries(raw)) {
    const operationId = typeof value === 'string' ? value : value?.operationId;
    if (typeof operationId !== 'string') throw new Error(`spec/jsonrpc/methods.yaml: method ${method} has no operationId`);
    map[method] = operationId;
  }
  return map;
}

/** Deep-copies `schema`, rewriting component refs to `#/$defs/<name>` and collecting the names it reaches. */
function localise(doc, schema, defs) {
  if (Array.isArray(schema)) return schema.map((s) => localise(doc, s, defs));
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') {
      if (!value.startsWith(COMPONENT_SCHEMA_PREFIX)) {
        throw new Error(`jsonrpc params: unsupported ref ${value} (only ${COMPONENT_SCHEMA_PREFIX}*)`);
      }
      const name = value.slice(COMPONENT_SCHEMA_PREFIX.length);
      out.$ref = `#/$defs/${name}`;
      if (!defs.has(name)) {
        defs.set(name, null); // reserve first: recursive schemas terminate here
        defs.set(name, localise(doc, doc.components.schemas[name], defs));
      }
    } else {
      out[key] = localise(doc, value, defs);
    }
  }
  return out;
}

function paramsSchema(doc, op) {
  const defs = new Map();
  let schema;
  let location;
  const bodySchema = jsonRequestSchema(doc, op.operation);
  if (bodySchema) {
    location = 'body';
    schema = localise(doc, deref(doc, bodySchema), defs);
    if (schema.type === 'object' && schema.additionalProperties === undefined && schema.unevaluatedProperties === undefined) {
      schema.additionalProperties = false;
    }
  } else {
    location = 'query';
    const properties = {};
    const required = [];
    for (const param of op.parameters) {
      if (param.in !== 'query') continue;
      const property = localise(doc, param.schema ?? {}, defs);
      if (param.description && property.description === undefined) property.description = param.description;
      properties[param.name] = property;
      if (param.required) required.push(param.name);
    }
    schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    schema.additionalProperties = false;
  }
  if (defs.size > 0) {
    schema.$defs = Object.fromEntries([...defs.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
  return { in: location, params: schema };
}

/** method -> { operationId, in, params }, sorted by method name. */
export function buildJsonRpcTable(v2Doc, methodMap) {
  const byId = new Map(listOperations(v2Doc).map((op) => [op.operationId, op]));
  const table = {};
  for (const method of Object.keys(methodMap).sort()) {
    const operationId = methodMap[method];
    const op = byId.get(operationId);
    if (!op) throw new Error(`spec/jsonrpc/methods.yaml: method ${method} maps to unknown v2 operationId ${operationId}`);
    if (operationId === 'jsonRPC') throw new Error(`spec/jsonrpc/methods.yaml: method ${method} cannot map to jsonRPC itself`);
    table[method] = { operationId, ...paramsSchema(v2Doc, op) };
  }
  return table;
}
