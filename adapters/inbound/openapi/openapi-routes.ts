import type { Hono } from 'hono';
import { onFirstUse } from '../../../domain/shared/first-use.js';
import type { SurfaceDeps } from '../http/surface-deps.js';

/** Mounts GET /openapi.json. */
export const mountOpenApi = (app: Hono, deps: SurfaceDeps): void => {
  // The registry is fixed at start-up, so the document is built once: on the first request, with the code
  // that builds it (a chunk of its own in the bundled server), so that neither costs the start (issue 39).
  const document = onFirstUse(() =>
    import('./openapi-document.js').then(({ openApiDocument }) =>
      JSON.stringify(openApiDocument(deps.executor.registry, deps.publicBaseUrl, deps.version)),
    ),
  );
  app.get(
    '/openapi.json',
    async () =>
      new Response(await document(), {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
      }),
  );
};
