import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import type { Bundles } from './bundles.js';

const require = createRequire(import.meta.url);
// Resolve the package directory without loading its index (which would pull the whole UI bundle into memory).
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

function page(title: string, specUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/docs-assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs-assets/swagger-ui-bundle.js"></script>
<script src="/docs-assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs-init.js" data-spec="${specUrl}"></script>
</body></html>`;
}

// Kept as a separate script so the page works under a strict Content-Security-Policy (no inline script).
const INIT_SCRIPT = `(function(){var s=document.currentScript.getAttribute('data-spec');
window.ui=SwaggerUIBundle({url:s,dom_id:'#ui',presets:[SwaggerUIBundle.presets.apis,SwaggerUIStandalonePreset],layout:'StandaloneLayout',persistAuthorization:true});})();`;

/** Interactive docs from bundled assets only (no CDN): /api/v2/, /api/v3/, their specs, and the UI files. */
export function docsRouter(bundles: Bundles): Router {
  const router = express.Router();
  router.use('/docs-assets', express.static(swaggerUiDir, { index: false, maxAge: '1h' }));
  router.get('/docs-init.js', (_req, res) => {
    res.type('application/javascript').send(INIT_SCRIPT);
  });
  for (const version of ['v2', 'v3'] as const) {
    const spec = bundles[version];
    // "Try it out" goes to the first server. The spec's own servers name the deployment's host names, which
    // differ from wherever the page was opened (127.0.0.1, another port) and would be cross-origin (no CORS), so
    // the page's own origin comes first; the named hosts stay selectable.
    const served = {
      ...spec,
      servers: [
        { url: `/api/${version}`, description: 'This server (the network of the host and port this page came from)' },
        ...(spec.servers ?? []),
      ],
    };
    router.get(`/api/${version}/openapi.json`, (_req, res) => {
      res.json(served);
    });
    router.get(`/api/${version}/`, (req, res, next) => {
      // express matches `/api/v2` and `/api/v2/` alike; only the slash form is the docs page (relative links).
      if (!req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, `/api/${version}/`);
      res.type('html').send(page(`${spec.info.title} ${spec.info.version}`, `/api/${version}/openapi.json`));
      void next;
    });
  }
  return router;
}
