import { createRequire } from 'node:module';
import type { NextFunction, Request, Response } from 'express';
import type { OperationValidator, ValidatorOptions } from '../validator.js';

/**
 * Request (and, in tests, response) validation by express-openapi-validator, without its middleware wrapper.
 *
 * The library's `middleware()` is a chain of six stages that each wait on the spec-loading promise for every
 * request (one microtask hop per stage) and then match the request against every documented path in turn. Our
 * paths have no parameters, so the match is an exact lookup. This module loads and preprocesses the spec with the
 * library's own loader and preprocessor, matches the route itself (case-insensitive, optional trailing slash: the
 * library's defaults), sets `req.openapi` exactly as the library's metadata stage does, and then runs the
 * library's RequestValidator and ResponseValidator, built from the same options by the library's own factories.
 * The validation itself (parameter parsing, coercion, Ajv schemas, error objects) is the library's, unchanged.
 * It reaches into the library's dist/ modules, so it runs only on the version it was written for (WRITTEN_FOR);
 * on any other, validator.ts uses the library's public middleware instead.
 */

/** The express-openapi-validator release whose internals this module uses. */
export const WRITTEN_FOR = '5.6.2';

const require = createRequire(import.meta.url);

/** The installed express-openapi-validator version; undefined when its package.json cannot be read. */
export function installedVersion(): string | undefined {
  try {
    return (require('express-openapi-validator/package.json') as { version?: string }).version;
  } catch {
    return undefined;
  }
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

interface LoadedSpec {
  apiDoc: { paths: Record<string, Record<string, unknown>> };
  routes: { expressRoute: string; openApiRoute: string; method: string; basePath: string; pathParams: string[] }[];
  serial: number;
}

interface ValidatorInternals {
  OpenApiValidator: new (options: Record<string, unknown>) => {
    options: { validateResponses: unknown };
    ajvOpts: { preprocessor: unknown };
    requestValidationMiddleware(apiDoc: unknown): Middleware;
    responseValidationMiddleware(apiDoc: unknown, serial: number): Middleware;
  };
  OpenApiSpecLoader: new (options: { apiDoc: unknown; validateApiSpec: boolean; $refParser: { mode: string } }) => {
    load(): Promise<LoadedSpec>;
  };
  SchemaPreprocessor: new (
    apiDoc: unknown,
    ajvOptions: unknown,
    responseOptions: unknown,
  ) => { preProcess(): { apiDoc: unknown; apiDocRes: LoadedSpec['apiDoc'] | null } };
  NotFound: new (args: { path: string; message: string }) => Error;
  MethodNotAllowed: new (args: { path: string; message: string; headers: Record<string, string> }) => Error;
}

function loadInternals(): ValidatorInternals {
  const root = require.resolve('express-openapi-validator');
  const from = (path: string) => require(require.resolve(`express-openapi-validator/dist/${path}`, { paths: [root] }));
  const internals: ValidatorInternals = {
    OpenApiValidator: from('openapi.validator.js').OpenApiValidator,
    OpenApiSpecLoader: from('framework/openapi.spec.loader.js').OpenApiSpecLoader,
    SchemaPreprocessor: from('middlewares/parsers/schema.preprocessor.js').SchemaPreprocessor,
    NotFound: from('framework/types.js').NotFound,
    MethodNotAllowed: from('framework/types.js').MethodNotAllowed,
  };
  for (const [name, value] of Object.entries(internals)) {
    if (typeof value !== 'function')
      throw new Error(`express-openapi-validator internals changed: ${name} not found (written for ${WRITTEN_FOR})`);
  }
  return internals;
}

interface Route {
  expressRoute: string;
  openApiRoute: string;
  schema: unknown;
  responseSchema: unknown;
}

/** The validator of one API version on the library's internals; `options` are the library's (validator.ts). */
export function createFastValidator(
  options: ValidatorOptions,
  validateResponses: boolean,
  ignorePaths?: RegExp,
): Omit<OperationValidator, 'path'> {
  const lib = loadInternals();
  const oav = new lib.OpenApiValidator(options);

  let ready: { routes: Map<string, Map<string, Route>>; request: Middleware; response: Middleware | undefined; serial: number } | undefined;
  let failed: unknown;
  // The same steps as the library's middleware(): load (resolve $refs), preprocess, then build the validators.
  const loading = new lib.OpenApiSpecLoader({
    apiDoc: structuredClone(options.apiSpec),
    validateApiSpec: false,
    $refParser: { mode: 'bundle' },
  })
    .load()
    .then((loaded) => {
      const processed = new lib.SchemaPreprocessor(loaded.apiDoc, oav.ajvOpts.preprocessor, oav.options.validateResponses).preProcess();
      const routes = new Map<string, Map<string, Route>>();
      for (const route of loaded.routes) {
        if (route.pathParams.length > 0)
          throw new Error(`path parameters are not supported by the exact route table: ${route.openApiRoute}`);
        const pathKey = route.openApiRoute.slice(route.basePath.length);
        const method = route.method.toLowerCase();
        const byMethod = routes.get(route.expressRoute.toLowerCase()) ?? new Map<string, Route>();
        byMethod.set(route.method, {
          expressRoute: route.expressRoute,
          openApiRoute: route.openApiRoute,
          schema: loaded.apiDoc.paths[pathKey]?.[method],
          responseSchema: processed.apiDocRes?.paths[pathKey]?.[method],
        });
        routes.set(route.expressRoute.toLowerCase(), byMethod);
      }
      ready = {
        routes,
        request: oav.requestValidationMiddleware(loaded.apiDoc),
        response: validateResponses ? oav.responseValidationMiddleware(processed.apiDocRes, loaded.serial) : undefined,
        serial: loaded.serial,
      };
    })
    .catch((err: unknown) => {
      failed = err;
    });

  function run(req: Request, res: Response, next: NextFunction): void {
    if (!ready) return next(failed ?? new Error('validator not loaded'));
    const state = ready;
    // Raw path as the library reads it (originalUrl, undecoded); its matching ignores case and one trailing slash.
    const url = req.originalUrl;
    const queryAt = url.indexOf('?');
    const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
    if (ignorePaths?.test(rawPath)) return next();
    let key = rawPath.toLowerCase();
    if (key.length > 1 && key.endsWith('/')) key = key.slice(0, -1);
    const byMethod = state.routes.get(key);
    if (!byMethod) return next(new lib.NotFound({ path: req.path, message: 'not found' }));
    const route = byMethod.get(req.method);
    if (!route) {
      return next(
        new lib.MethodNotAllowed({
          path: req.path,
          message: `${req.method} method not allowed`,
          headers: { Allow: [...byMethod.keys()].join(', ') },
        }),
      );
    }
    // What the library's metadata stage leaves on a matched request.
    // (One shape for every request; _responseSchema is only read when response validation is on.)
    (req as unknown as { openapi: unknown }).openapi = {
      expressRoute: route.expressRoute,
      openApiRoute: route.openApiRoute,
      pathParams: {},
      schema: route.schema,
      serial: state.serial,
      _responseSchema: state.response ? route.responseSchema : undefined,
    };
    req.params = {};
    try {
      state.request(req, res, (err?: unknown) => {
        if (err || !state.response) return next(err);
        state.response(req, res, next);
      });
    } catch (err) {
      next(err);
    }
  }

  return {
    handle(req, res, next) {
      if (ready || failed) return run(req, res, next);
      void loading.then(() => run(req, res, next));
    },
  };
}
