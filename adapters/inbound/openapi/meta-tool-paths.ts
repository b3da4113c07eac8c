import { GROUPS } from '../../../application/runtime/define-tool.js';
import { CALL_TOOL, DESCRIBE_TOOL, FIND_TOOLS, metaToolListings } from '../../../application/runtime/discovery.js';
import type { ToolRegistry } from '../../../application/runtime/registry.js';

// The tool-search meta tools' operations (issue 30): `POST /v1/tools/gateway/{findTools,describeTool,callTool}`,
// the path scheme of every tool, as GET /v1/tools?discovery=search lists them.

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const WHAT: Readonly<Record<string, string>> = {
  [FIND_TOOLS]:
    'Finds tools by the task in words among those this token may call (within `groups` when given). With `format=json`: `{query, count, tools: [{name, title, kind, purpose, required, optional}]}`.',
  [DESCRIBE_TOOL]:
    "One tool this token may call, as MCP's tools/list gives it (input schema, output outline, annotations); a tool it may not call is a 404 like an unknown one. With `format=json`: `{tool}`.",
  [CALL_TOOL]:
    "Calls the named tool with its arguments: the same answers, checks, idempotency and confirmation as the tool's own operation.",
};

/** The `discovery` parameter of GET /v1/tools. */
export const DISCOVERY_PARAMETER = {
  name: 'discovery',
  in: 'query',
  required: false,
  description:
    '`search`: list the tool-search meta tools (gateway_findTools, gateway_describeTool, gateway_callTool) instead of the tools; each is served at its own operation and by the tool-call form.',
  schema: { type: 'string', enum: ['search', 'list'] },
};

/** The three operations, with the error responses every tool operation has. */
export const metaToolPaths = (
  registry: ToolRegistry,
  errorResponses: Readonly<Record<string, unknown>>,
): Record<string, unknown> =>
  Object.fromEntries(
    metaToolListings(registry.tools).map((t) => [
      `/v1/tools/gateway/${t.name.slice('gateway_'.length)}`,
      {
        post: {
          operationId: t.name,
          summary: t.title,
          description: `${WHAT[t.name]}\n\n${t.description}`,
          tags: ['tools'],
          security: [{ bearer: [] }],
          parameters: [
            ref('parameters', 'format'),
            ref('parameters', 'base64'),
            ref('parameters', 'requestId'),
            ...(t.name === CALL_TOOL ? [ref('parameters', 'idempotencyKey')] : []),
            {
              name: 'groups',
              in: 'query',
              required: false,
              description: `Only tools of these groups (toolsets), comma-separated: ${GROUPS.join(', ')}; as GET /v1/tools?groups= lists them.`,
              schema: { type: 'string', example: 'crm,records' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: t.inputSchema } } },
          responses: { '200': ref('responses', 'Success'), ...errorResponses },
        },
      },
    ]),
  );
