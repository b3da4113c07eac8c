import { CONNECTION_TAG, connectionPaths } from './connection-paths.js';
import { JOB_ACCEPTED, JOBS_TAG, jobPaths, PREFER_PARAMETER } from './job-paths.js';
import { JOB_TOOLS } from '../../../application/jobs/job-tools.js';
import { GROUPS } from '../../../application/runtime/define-tool.js';
import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import type { ToolRegistry } from '../../../application/runtime/registry.js';
import { DIALECTS, OUTPUT_SCHEMA_FORMS } from '../dialects/tool-dialects.js';
import { META_TOOL_NAMES } from '../../../application/runtime/discovery.js';
import { DISCOVERY_PARAMETER, metaToolPaths } from './meta-tool-paths.js';

/** Every error status a tool call can answer with, and when. */
export const ERROR_STATUSES: ReadonlyArray<readonly [status: number, codes: readonly string[], description: string]> = [
  [
    400,
    ['INVALID_PARAMETER'],
    'A parameter is missing, unknown or of the wrong type; details name it and what is expected.',
  ],
  [401, ['UNAUTHORIZED'], 'No bearer token, or the token was refused.'],
  [
    403,
    ['FORBIDDEN'],
    'The token lacks the permission the tool needs (details.permission), or the upstream system refused the action.',
  ],
  [404, ['NOT_FOUND'], 'The tool, or the thing the tool was asked about, does not exist.'],
  [
    409,
    ['CONFLICT'],
    'The change conflicts with the current state, or a call with the same Idempotency-Key is still running.',
  ],
  [
    408,
    ['REQUEST_TIMEOUT'],
    'The request body was still arriving when its time was up (GATEWAY_BODY_TIMEOUT_MS); the connection is closed. Send the whole body at once.',
  ],
  [413, ['PAYLOAD_TOO_LARGE'], 'The request body is over the size limit.'],
  [
    422,
    ['IDEMPOTENCY_KEY_REUSED', 'DOCUMENT_TOO_COMPLEX'],
    'The Idempotency-Key was already used for a different call; or the document to read (a file, a fetched page) is past a reading bound named in details.limit (depth, elements, unpacked bytes, pages, time or memory).',
  ],
  [429, ['RATE_LIMITED'], 'Too many calls; retry after details.retry_after_seconds (also in Retry-After).'],
  [500, ['INTERNAL_ERROR'], 'The gateway failed unexpectedly; the error was logged with the request id.'],
  [502, ['UPSTREAM_ERROR'], 'The upstream system failed; details.retryable says whether a retry is safe.'],
  [
    503,
    ['UNAVAILABLE'],
    'The gateway cannot take the call now (a store it needs is down, or the document readers are all busy); nothing was changed. Retry after details.retry_after_seconds (also in Retry-After).',
  ],
  [
    504,
    ['TIMEOUT'],
    'The tool did not finish in time; for writes, check before retrying or retry with the same Idempotency-Key.',
  ],
];

/** The headers of every tool's 200 answer. */
const successHeaders = () => ({
  'X-Request-Id': ref('headers', 'requestId'),
  'RateLimit-Limit': ref('headers', 'rateLimitLimit'),
  'RateLimit-Remaining': ref('headers', 'rateLimitRemaining'),
  'RateLimit-Reset': ref('headers', 'rateLimitReset'),
});

/** A tool's 200 with its result schema: `data` is the text, or with `format=json` the declared object. */
const typedSuccess = (outputSchema: JsonSchema) => ({
  description: 'The tool ran.',
  headers: successHeaders(),
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          success: { const: true },
          data: {
            description:
              'Markdown text by default; with `format=json` the structured result; base64 with `base64=true`.',
            anyOf: [{ type: 'string' }, outputSchema],
          },
          encoding: { type: 'string', enum: ['base64'] },
        },
        required: ['success', 'data'],
      },
    },
  },
});

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const errorResponses = () =>
  Object.fromEntries(ERROR_STATUSES.map(([status]) => [String(status), ref('responses', `Error${status}`)]));

const components = (toolNames: readonly string[]) => ({
  securitySchemes: {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description:
        'An API key or a JWT access token. Its permissions (`crm:read`, `records:write`, `files:*`, `*`...) decide which tools it may call.',
    },
  },
  parameters: {
    format: {
      name: 'format',
      in: 'query',
      required: false,
      description:
        '`text` (default): markdown written for a model, within the output budget. `json`: the structured payload, never cut.',
      schema: { type: 'string', enum: ['text', 'json'], default: 'text' },
    },
    base64: {
      name: 'base64',
      in: 'query',
      required: false,
      description:
        'When true, `data` is the base64 encoding of the result (text or JSON) and `encoding` is `base64`. Errors are never encoded.',
      schema: { type: 'boolean', default: false },
    },
    idempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a write safe to retry: a repeated call with the same key and the same arguments replays the first outcome (marked by the `Idempotent-Replayed: true` header).',
      schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
    },
    requestId: {
      name: 'X-Request-Id',
      in: 'header',
      required: false,
      description:
        'Your id for the request (1 to 128 of A-Z a-z 0-9 . _ : -); echoed in the response, generated when absent.',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    },
  },
  headers: {
    requestId: { description: 'The request id (yours, or generated).', schema: { type: 'string' } },
    rateLimitLimit: {
      description: 'Calls per minute allowed to this tool group for this token.',
      schema: { type: 'integer' },
    },
    rateLimitRemaining: { description: 'Calls left in the current window.', schema: { type: 'integer' } },
    rateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  },
  schemas: {
    SuccessEnvelope: {
      type: 'object',
      description:
        'A tool result. `data` is markdown text by default, the structured payload with `format=json`, or a base64 string with `base64=true`.',
      properties: {
        success: { const: true },
        data: { description: 'The result: a string (text or base64) or the JSON payload.' },
        encoding: { type: 'string', enum: ['base64'], description: 'Present when `data` is base64-encoded.' },
      },
      required: ['success', 'data'],
    },
    ErrorEnvelope: {
      type: 'object',
      properties: {
        success: { const: false },
        error: {
          type: 'object',
          properties: {
            code: {
              type: 'string',
              enum: [...new Set(ERROR_STATUSES.flatMap(([, codes]) => codes))],
              description: 'Stable machine-readable code.',
            },
            message: { type: 'string', description: 'What went wrong and what to do next.' },
            details: {
              type: 'object',
              additionalProperties: true,
              description:
                'Specifics: parameter and expected, resource and id, retry_after_seconds, retryable, permission...',
            },
          },
          required: ['code', 'message', 'details'],
        },
      },
      required: ['success', 'error'],
    },
    ToolCall: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: [...toolNames, ...META_TOOL_NAMES], description: 'The tool, `<group>_<tool>`.' },
        arguments: { type: 'object', description: "The tool's parameters, as in the body of its own operation." },
        idempotency_key: { type: 'string', description: 'Same as the Idempotency-Key header.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    ToolListing: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        group: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        annotations: { type: 'array', items: { type: 'string', enum: ['Read', 'Write', 'Destructive', 'Idempotent'] } },
        readOnlyHint: { type: 'boolean' },
        destructiveHint: { type: 'boolean' },
        idempotentHint: { type: 'boolean' },
        openWorldHint: { type: 'boolean' },
        permission: { type: 'string' },
        inputSchema: { type: 'object', description: 'JSON Schema of the parameters.' },
      },
      required: ['name', 'group', 'title', 'description', 'annotations', 'permission', 'inputSchema'],
    },
  },
  responses: {
    Success: {
      description: 'The tool ran.',
      headers: successHeaders(),
      content: { 'application/json': { schema: ref('schemas', 'SuccessEnvelope') } },
    },
    ...Object.fromEntries(
      ERROR_STATUSES.map(([status, codes, description]) => {
        const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'requestId') };
        if (status === 401)
          headers['WWW-Authenticate'] = { description: 'Bearer challenge.', schema: { type: 'string' } };
        if (status === 429 || status === 503)
          headers['Retry-After'] = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };
        return [
          `Error${status}`,
          {
            description: `${description} Code: ${codes.join(', ')}.`,
            headers,
            content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope') } },
          },
        ];
      }),
    ),
  },
});

/** The OpenAPI 3.1 document of the HTTP surface, derived from the registry. */
export const openApiDocument = (
  registry: ToolRegistry,
  publicBaseUrl: string,
  version: string,
): Record<string, unknown> => {
  const paths: Record<string, unknown> = {};
  const tags = new Map<string, string>();
  for (const tool of registry.tools) {
    const d = tool.declaration;
    tags.set(d.group, `The ${d.group} tools.`);
    const write = d.annotations.kind !== 'Read';
    const labels = [d.annotations.kind, ...(d.annotations.idempotent ? ['Idempotent'] : [])].join(', ');
    paths[`/v1/tools/${d.group}/${d.name}`] = {
      post: {
        operationId: tool.name,
        summary: d.title,
        description: `${d.description}\n\n${labels}. Needs the \`${tool.permission}\` permission.`,
        tags: [d.group],
        security: [{ bearer: [] }],
        parameters: [
          ref('parameters', 'format'),
          ref('parameters', 'base64'),
          ref('parameters', 'requestId'),
          ...(write ? [ref('parameters', 'idempotencyKey')] : []),
          ...(JOB_TOOLS.has(tool.name) ? [PREFER_PARAMETER] : []),
        ],
        requestBody: {
          required: tool.requiredParameters.length > 0,
          content: { 'application/json': { schema: tool.inputSchema } },
        },
        responses: {
          '200': tool.outputSchema ? typedSuccess(tool.outputSchema) : ref('responses', 'Success'),
          ...(JOB_TOOLS.has(tool.name) ? { '202': JOB_ACCEPTED } : {}),
          ...errorResponses(),
        },
        'x-tool-annotations': {
          kind: d.annotations.kind,
          readOnlyHint: d.annotations.kind === 'Read',
          destructiveHint: d.annotations.kind === 'Destructive',
          idempotentHint: d.annotations.idempotent,
          openWorldHint: d.annotations.openWorld ?? true,
        },
      },
    };
  }
  Object.assign(paths, metaToolPaths(registry, errorResponses()));
  paths['/v1/tools/call'] = {
    post: {
      operationId: 'callTool',
      summary: 'Call a tool by name',
      description:
        'The tool-call form: `{"name": "<group>_<tool>", "arguments": {...}}`. Same answers as the tool\'s own operation.',
      tags: ['tools'],
      security: [{ bearer: [] }],
      parameters: [
        ref('parameters', 'format'),
        ref('parameters', 'base64'),
        ref('parameters', 'requestId'),
        ref('parameters', 'idempotencyKey'),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', 'ToolCall') } } },
      responses: { '200': ref('responses', 'Success'), ...errorResponses() },
    },
  };
  paths['/v1/tools'] = {
    get: {
      operationId: 'listTools',
      summary: 'List the tools',
      description:
        "Every tool with its JSON Schema and annotations. `callable=true` keeps only the tools the token may call (and then needs the token); `dialect` gives the list in a model vendor's function-calling format.",
      tags: ['tools'],
      security: [{}, { bearer: [] }],
      parameters: [
        {
          name: 'callable',
          in: 'query',
          required: false,
          description: 'Only the tools this token may call.',
          schema: { type: 'boolean' },
        },
        {
          name: 'dialect',
          in: 'query',
          required: false,
          description: 'Vendor format of the list.',
          schema: { type: 'string', enum: [...DIALECTS] },
        },
        {
          name: 'groups',
          in: 'query',
          required: false,
          description: `Only these groups (toolsets), comma-separated: ${GROUPS.join(', ')}. \`/mcp?groups=\` limits an MCP connection the same way.`,
          schema: { type: 'string', example: 'crm,records' },
        },
        {
          name: 'output_schemas',
          in: 'query',
          required: false,
          description:
            "With dialect=mcp: each tool's outputSchema in outline (the default: members, types, required, enums), full, or none. `/mcp?output_schemas=` sets the same for an MCP connection.",
          schema: { type: 'string', enum: [...OUTPUT_SCHEMA_FORMS], default: 'outline' },
        },
        DISCOVERY_PARAMETER,
      ],
      responses: {
        '200': {
          description: 'The tools.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  success: { const: true },
                  data: {
                    type: 'object',
                    properties: {
                      count: { type: 'integer' },
                      dialect: { type: 'string', enum: [...DIALECTS] },
                      tools: {
                        type: 'array',
                        items: {
                          anyOf: [
                            ref('schemas', 'ToolListing'),
                            { type: 'object', description: 'A tool in the requested dialect.' },
                          ],
                        },
                      },
                    },
                    required: ['count', 'tools'],
                  },
                },
                required: ['success', 'data'],
              },
            },
          },
        },
        '400': ref('responses', 'Error400'),
        '401': ref('responses', 'Error401'),
      },
    },
  };
  Object.assign(paths, connectionPaths(), jobPaths());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tool Gateway',
      version,
      description:
        'Task-oriented tools for AI agents over file storage, record databases, workspaces, a CRM and property-owner lookup. Each tool is one POST operation; answers are markdown text for a model by default, JSON with `format=json`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: publicBaseUrl }],
    tags: [
      ...[...tags].map(([name, description]) => ({ name, description })),
      { name: 'tools', description: 'Listing and calling tools by name.' },
      CONNECTION_TAG,
      JOBS_TAG,
    ],
    paths,
    components: components(registry.tools.map((t) => t.name)),
  };
};
