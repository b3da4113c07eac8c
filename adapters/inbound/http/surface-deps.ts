import type { Authenticator } from '../../../ports/authenticator.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import type { ConnectionWatch } from '../../../application/connections/connection-watch.js';

/** What every inbound surface (HTTP tools, MCP, OpenAPI, the reference page) is built from. */
export interface SurfaceDeps {
  readonly executor: ToolExecutor;
  readonly authenticator: Authenticator;
  /** The gateway's public base URL, for documents that name it (OpenAPI servers, OAuth metadata). */
  readonly publicBaseUrl: string;
  /** The package version, for documents and the MCP server info. */
  readonly version: string;
  /** Most characters in a text result. */
  readonly outputBudget?: number;
  /** Most characters in the JSON of a list answer (format=json, MCP structuredContent). */
  readonly jsonBudget?: number;
  /** Where an MCP call that asked its person to connect a vendor waits for the connection (issue 43). */
  readonly connectionWatch?: ConnectionWatch;
}
