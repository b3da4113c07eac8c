import type { Hono } from 'hono';
import type { SurfaceDeps } from '../http/surface-deps.js';
import { openApiDocument } from './openapi-document.js';

/** Mounts GET /openapi.json. */
export const mountOpenApi = (app: Hono, deps: SurfaceDeps): void => {
  // The registry is fixed at start-up, so the document is built once.
  const body = JSON.stringify(openApiDocument(deps.executor.registry, deps.publicBaseUrl, deps.version));
  app.get(
    '/openapi.json',
    () =>
      new Response(body, {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
      }),
  );
};
