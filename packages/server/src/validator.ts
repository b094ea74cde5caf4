import type { NextFunction, Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiDocument } from './bundles.js';
import { createFastValidator, installedVersion, WRITTEN_FOR } from './fast/openapi-validator.js';

/**
 * Request (and, in tests, response) validation by express-openapi-validator. On the release the fast path was
 * written for (fast/openapi-validator.ts: the library's own stages without its per-request promise chain and
 * linear route search), that path; on any other, the library's public middleware with the same options.
 */
export interface OperationValidator {
  /** Matches the request to its operation, validates it, and (when configured) arms response validation. */
  handle(req: Request, res: Response, next: NextFunction): void;
  /** Which implementation validates: the fast path over the library's internals, or its public middleware. */
  readonly path: 'fast' | 'public';
}

/** express-openapi-validator's options, as both implementations take them. */
export type ValidatorOptions = ReturnType<typeof validatorOptions>;

function validatorOptions(version: 'v2' | 'v3', spec: OpenApiDocument, validateResponses: boolean) {
  return {
    // The library annotates the document it is given; keep the served bundle pristine. Its servers carry host
    // templates for the docs; routing by host is ours, so the validator only needs the path prefix.
    apiSpec: { ...structuredClone(spec), servers: [{ url: `/api/${version}` }] },
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: validateResponses ? { removeAdditional: false as const } : (false as const),
    validateSecurity: false as const,
    validateApiSpec: false,
  };
}

/**
 * The validator of one API version, configured for speed: the spec is trusted (generated and linted).
 * `seam.installed` stands in for the installed library version (tests force the public path with it).
 */
export function createValidator(
  version: 'v2' | 'v3',
  spec: OpenApiDocument,
  validateResponses: boolean,
  ignorePaths?: RegExp,
  seam: { installed?: string } = {},
): OperationValidator {
  const options = validatorOptions(version, spec, validateResponses);
  if ((seam.installed ?? installedVersion()) === WRITTEN_FOR)
    return { ...createFastValidator(options, validateResponses, ignorePaths), path: 'fast' };
  // The bundle is a complete OpenAPI 3.1 document; the library's document type is stricter than the bundle's.
  const stages = OpenApiValidator.middleware({
    ...options,
    apiSpec: options.apiSpec as unknown as Parameters<typeof OpenApiValidator.middleware>[0]['apiSpec'],
    ignorePaths,
  }) as RequestHandler[];
  return {
    path: 'public',
    handle(req, res, next) {
      runStages(stages, 0, req, res, next);
    },
  };
}

/** Runs the library's middleware stages in order, stopping at the first error. */
function runStages(stages: RequestHandler[], at: number, req: Request, res: Response, next: NextFunction): void {
  if (at === stages.length) return next();
  try {
    void stages[at](req, res, (err?: unknown) => (err ? next(err) : runStages(stages, at + 1, req, res, next)));
  } catch (err) {
    next(err);
  }
}
