// Walking a bundled OpenAPI document: operations in a stable order, local $ref resolution.

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Resolves a local JSON pointer ref (`#/components/...`) inside `doc`. */
export function resolvePointer(doc, ref) {
  if (!ref.startsWith('#/')) throw new Error(`only local refs are supported, got ${ref}`);
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node == null || !(key in node)) throw new Error(`unresolved ref ${ref}`);
    node = node[key];
  }
  return node;
}

/** Follows `$ref` chains at the top level of `node` only. */
export function deref(doc, node) {
  let current = node;
  const seen = new Set();
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) throw new Error(`circular ref ${current.$ref}`);
    seen.add(current.$ref);
    current = resolvePointer(doc, current.$ref);
  }
  return current;
}

/**
 * Every operation of the document in document order, with its path-level and operation-level parameters merged
 * (operation-level wins, as OpenAPI specifies). Throws when an operation has no operationId.
 */
export function listOperations(doc) {
  const operations = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = deref(doc, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (!operation.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const byKey = new Map();
      for (const p of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const param = deref(doc, p);
        byKey.set(`${param.in}:${param.name}`, param);
      }
      operations.push({ path, method, operationId: operation.operationId, operation, parameters: [...byKey.values()] });
    }
  }
  return operations;
}

/** The application/json schema of the operation's request body, or undefined. */
export function jsonRequestSchema(doc, operation) {
  if (!operation.requestBody) return undefined;
  const body = deref(doc, operation.requestBody);
  return body.content?.['application/json']?.schema;
}
