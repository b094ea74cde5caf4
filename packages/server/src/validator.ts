import { createRequire } from 'node:module';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from './bundles.js';

type PathToRegexp = (path: string, options?: { sensitive?: boolean; strict?: boolean }) => { regexp: RegExp; keys: unknown[] };

/**
 * express-openapi-validator 5.6 finds the operation of a request by compiling every documented path with
 * path-to-regexp, on every request, until one matches: dozens of compilations per request, the largest single
 * cost of the front door. The compilation is a pure function of (path, options) and its result holds no
 * per-request state (the regexps carry no g/y flag), so caching it changes nothing but the cost. The cache is
 * installed on the copy of path-to-regexp the validator itself loads.
 */
let memoized = false;
function memoizeRouteCompilation(): void {
  if (memoized) return;
  memoized = true;
  const require = createRequire(import.meta.url);
  const validatorEntry = require.resolve('express-openapi-validator');
  const pathToRegexpModule = require(require.resolve('path-to-regexp', { paths: [validatorEntry] })) as { pathToRegexp: PathToRegexp };
  const compile = pathToRegexpModule.pathToRegexp;
  const cache = new Map<string, ReturnType<PathToRegexp>>();
  const MAX_ENTRIES = 10_000;
  pathToRegexpModule.pathToRegexp = (path, options) => {
    if (typeof path !== 'string') return compile(path, options);
    const id = `${options?.sensitive ? 1 : 0}${options?.strict ? 1 : 0}${path}`;
    let compiled = cache.get(id);
    if (!compiled) {
      compiled = compile(path, options);
      if (cache.size < MAX_ENTRIES) cache.set(id, compiled);
    }
    return compiled;
  };
}

/** The request validator of one API version, configured for speed: the spec is trusted (generated and linted). */
export function createValidator(version: 'v2' | 'v3', spec: OpenApiDocument, validateResponses: boolean, ignorePaths?: RegExp) {
  memoizeRouteCompilation();
  // The validator annotates the document it is given; keep the served bundle pristine. Its servers carry host
  // templates for the docs; routing by host is ours, so the validator only needs the path prefix.
  const apiSpec = { ...structuredClone(spec), servers: [{ url: `/api/${version}` }] };
  return OpenApiValidator.middleware({
    apiSpec: apiSpec as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ...(ignorePaths ? { ignorePaths } : {}),
  });
}
