// Joins a bundle's operations with hey-api's generated names into the model both emitters use.
import { jsonRequestSchema, listOperations } from './spec-walk.mjs';

const SUPPORTED_METHODS = new Set(['get', 'post']);

/** `/a/{id}/b` -> `/a/:id/b` */
export function toExpressPath(openApiPath) {
  return openApiPath.replace(/\{([^}]+)\}/g, (_, name) => `:${name}`);
}

/** Static paths first so that `/items/search` is matched before `/items/:id`; document order otherwise. */
function routeOrder(a, b) {
  return Number(a.path.includes('{')) - Number(b.path.includes('{'));
}

/** The path prefix the servers of a path item agree on (`http://{host}/api/emulate/v1` -> `/api/emulate/v1`). */
function serverBase(servers) {
  if (!servers?.length) return undefined;
  const bases = new Set(servers.map((s) => new URL(s.url.replace(/\{\w+\}/g, 'host')).pathname.replace(/\/$/, '')));
  if (bases.size !== 1) throw new Error(`servers of one path disagree on the path prefix: ${[...bases].join(', ')}`);
  return [...bases][0];
}

export function buildModel(doc, sdkFunctions, label) {
  const seen = new Set();
  const operations = listOperations(doc).map((op) => {
    if (!SUPPORTED_METHODS.has(op.method)) {
      throw new Error(`${label}: ${op.method.toUpperCase()} ${op.path}: only GET and POST are supported by the route table`);
    }
    if (seen.has(op.operationId)) throw new Error(`${label}: duplicate operationId ${op.operationId}`);
    seen.add(op.operationId);
    const sdk = sdkFunctions.get(`${op.method} ${op.path}`);
    if (!sdk) throw new Error(`${label}: hey-api generated no SDK function for ${op.method.toUpperCase()} ${op.path}`);
    const hasBody = jsonRequestSchema(doc, op.operation) !== undefined;
    const hasQuery = op.parameters.some((p) => p.in === 'query');
    const hasPathParams = op.parameters.some((p) => p.in === 'path');
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      // A path item with servers of its own is served under their path prefix instead of the version's.
      base: serverBase(doc.paths[op.path]?.servers),
      expressPath: toExpressPath(op.path),
      summary: op.operation.summary ?? '',
      hasPathParams,
      hasQueryParams: hasQuery,
      // Where a client passes the parameters object; the server side gets query, body and path separately.
      input: hasBody ? 'body' : hasQuery ? 'query' : hasPathParams ? 'path' : 'none',
      sdk,
    };
  });
  return operations.sort(routeOrder);
}
