import type { Hono } from 'hono';
import type { SurfaceDeps } from '../http/surface-deps.js';

/** Mounts the MCP endpoint (Streamable HTTP) at /mcp. */
export const mountMcp = (_app: Hono, _deps: SurfaceDeps): void => {};
