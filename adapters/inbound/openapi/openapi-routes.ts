import type { Hono } from 'hono';
import type { SurfaceDeps } from '../http/surface-deps.js';

/** Mounts GET /openapi.json. */
export const mountOpenApi = (_app: Hono, _deps: SurfaceDeps): void => {};
