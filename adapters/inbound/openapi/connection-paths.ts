// The connection and audit endpoints in the OpenAPI document (the tools' operations are generated from
// the registry; these are written out, as they are few and fixed).

import { errors } from './error-responses.js';

const vendorParam = {
  name: 'vendor',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: ['hubspot', 'podio', 'sharefile', 'batchdata'] },
};
const scopeParam = {
  name: 'scope',
  in: 'query',
  required: false,
  description: "`tenant` (default; needs connections:manage) or `user` (the caller's own connection).",
  schema: { type: 'string', enum: ['tenant', 'user'], default: 'tenant' },
};

const connection = {
  type: 'object',
  properties: {
    vendor: { type: 'string' },
    scope: { type: 'string', enum: ['tenant', 'user'] },
    owner: { type: 'string', description: 'The owning principal of a user connection.' },
    status: { type: 'string', enum: ['connected', 'needs_reauthorization', 'not_connected'] },
    kind: { type: 'string', enum: ['oauth', 'key', 'environment'] },
    account: { type: 'string' },
    connected_at: { type: 'string', format: 'date-time' },
    last_refreshed_at: { type: 'string', format: 'date-time' },
    source: {
      type: 'string',
      enum: ['environment'],
      description: "The default tenant's connection made from the environment's credentials (not deletable here).",
    },
    in_use: {
      type: 'boolean',
      description: "For the environment's connection: false while a stored tenant-wide connection is used instead.",
    },
    connect: {
      type: 'object',
      properties: { authorize_url: { type: 'string' }, key_endpoint: { type: 'string' } },
    },
  },
  required: ['vendor', 'scope', 'status'],
};
const ok = (data: object, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { success: { const: true }, data }, required: ['success', 'data'] },
    },
  },
});

const grant = {
  type: 'object',
  properties: {
    grant_id: { type: 'string' },
    client_id: {
      type: 'string',
      description: 'A registered client id, or the URL of its Client ID Metadata Document.',
    },
    client_name: { type: 'string' },
    redirect_hosts: {
      type: 'array',
      items: { type: 'string' },
      description: "The hosts of the client's redirect URIs (where its authorization codes go).",
    },
    principal: { type: 'string', description: 'Who consented (`key:ops`).' },
    scopes: { type: 'array', items: { type: 'string' }, description: 'The permissions granted.' },
    granted_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
  },
  required: ['grant_id', 'client_id', 'redirect_hosts', 'principal', 'scopes', 'updated_at'],
};

export const CONNECTION_TAG = {
  name: 'connections',
  description:
    "A tenant's connections to its vendors (never a secret), and the audit log. A tool whose vendor is not connected answers 409 NOT_CONNECTED with details.connect_url.",
};

export const connectionPaths = (): Record<string, unknown> => ({
  '/v1/connections': {
    get: {
      operationId: 'listConnections',
      summary: "The caller's tenant's connections",
      tags: ['connections'],
      security: [{ bearer: [] }],
      responses: {
        '200': ok(
          {
            type: 'object',
            properties: { tenant: { type: 'string' }, connections: { type: 'array', items: connection } },
          },
          'Every connection the caller can see: tenant-wide ones and their own.',
        ),
        ...errors(401),
      },
    },
  },
  '/v1/connections/{vendor}': {
    post: {
      operationId: 'connectWithKey',
      summary: 'Store a key-based credential (checked once against the vendor)',
      description: 'BatchData API key or HubSpot private-app token. Nothing is saved when the vendor refuses it.',
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [vendorParam, scopeParam],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', properties: { key: { type: 'string', maxLength: 4096 } }, required: ['key'] },
          },
        },
      },
      responses: { '201': ok(connection, 'Connected.'), ...errors(400, 401, 403, 404, 502) },
    },
    delete: {
      operationId: 'disconnect',
      summary: 'Revoke at the vendor where it can, then forget',
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [vendorParam, scopeParam],
      responses: {
        '200': ok(
          { type: 'object', properties: { removed: { type: 'boolean' } } },
          'Forgotten (removed: false when there was none).',
        ),
        ...errors(401, 403, 404, 409),
      },
    },
  },
  '/v1/connections/{vendor}/authorize': {
    get: {
      operationId: 'authorizeConnection',
      summary:
        "A connect link (one hour) for a person's browser: it starts the vendor's OAuth flow (PKCE where the vendor supports it)",
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [
        vendorParam,
        scopeParam,
        {
          name: 'redirect',
          in: 'query',
          required: false,
          description: 'true: answer 302 to the connect link instead of JSON.',
          schema: { type: 'boolean' },
        },
      ],
      responses: {
        '200': ok(
          { type: 'object', properties: { authorize_url: { type: 'string' } } },
          "Where to send the person: the gateway's connect link, which sets the flow's cookie and goes on to the vendor.",
        ),
        '302': { description: 'To the connect link (redirect=true).' },
        ...errors(400, 401, 403, 404),
      },
    },
  },
  '/oauth/callback': {
    get: {
      operationId: 'oauthCallback',
      summary:
        "Where the vendor sends the person back: checks the state (once only) and the flow's cookie, stores the tokens, shows what was connected",
      tags: ['connections'],
      security: [{}],
      responses: {
        '200': { description: 'A page that says what was connected.' },
        '400': { description: 'Unknown, expired or already used state, or not the browser that started the flow.' },
        '503': { description: 'The store of used states cannot answer; nothing was connected. Retry the link.' },
      },
    },
  },
  '/connect/{vendor}': {
    get: {
      operationId: 'openConnectLink',
      summary: 'A connect link (sealed ticket, one hour): the sign-in form of the caller it was made for',
      description:
        'Opened alone it starts nothing: the page asks the person to sign in to the gateway with their API key, and sets the form cookie (SameSite=Strict) the form must come back with.',
      tags: ['connections'],
      security: [{}],
      parameters: [vendorParam, { name: 'ticket', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '200': { description: 'The sign-in form.' },
        '400': { description: 'Expired or invalid, or a vendor that connects by key.' },
      },
    },
    post: {
      operationId: 'signInToConnect',
      summary: "The connect page's form: signed in as the link's caller, 303 to the vendor",
      tags: ['connections'],
      security: [{}],
      parameters: [vendorParam],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['ticket', 'form', 'api_key'],
              properties: { ticket: { type: 'string' }, form: { type: 'string' }, api_key: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        '303': {
          description: "To the vendor's authorization page, with the flow's cookie set (HttpOnly, SameSite=Lax).",
        },
        '400': { description: 'Expired or invalid.' },
        '401': { description: 'The key does not sign in (the form again).' },
        '403': { description: 'Signed in as someone other than the caller the link was made for, or no form cookie.' },
        '413': { description: 'The form is larger than 16 KiB.' },
        '429': {
          description:
            'Ten wrong keys for this link, then one a minute (counted by every instance together with Redis).',
        },
      },
    },
  },
  '/connect/{vendor}/oidc': {
    post: {
      operationId: 'signInToConnectWithProvider',
      summary: "The connect page's 'Sign in with {provider}' (only with an OpenID provider configured)",
      description:
        'For people without an API key: the same form fields and cookie as the key form, without api_key; 303 to the OpenID provider, which answers at /oauth/oidc/callback and from there at /connect/oidc/return.',
      tags: ['connections'],
      security: [{}],
      parameters: [vendorParam],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['ticket', 'form'],
              properties: { ticket: { type: 'string' }, form: { type: 'string' } },
            },
          },
        },
      },
      responses: {
        '303': { description: "To the provider's sign-in, with the pending sign-in's cookies (HttpOnly, Lax)." },
        '400': { description: 'Expired or invalid link.' },
        '403': { description: 'No form cookie (not posted from the connect page in this browser).' },
        '502': { description: 'The provider could not be reached.' },
      },
    },
  },
  '/connect/oidc/return': {
    get: {
      operationId: 'finishConnectSignIn',
      summary: "The provider's answer for a connect page: signed in as the link's caller, 303 to the vendor",
      tags: ['connections'],
      security: [{}],
      responses: {
        '303': { description: "To the vendor's authorization page, with the flow's cookie set." },
        '400': { description: 'No pending sign-in of this browser (expired, used, or another browser).' },
        '401': { description: 'The provider did not sign the person in, or its answer could not be verified.' },
        '403': { description: 'Signed in as someone other than the caller the link was made for.' },
      },
    },
  },
  '/v1/audit': {
    get: {
      operationId: 'readAuditLog',
      summary: "The tenant's audit log, newest first (needs audit:read)",
      description:
        "One entry per Write or Destructive tool call and per connection change: time, principal, tool, vendor, target ids, status and code, request id, a skip trace's purpose, and who approved a tool call (approver: person, model or nobody). A write replayed under its Idempotency-Key (nothing ran) has replay: true and replay_of, the request id of the call that ran: count the entries without replay to count writes. No other argument values. 100 a page; pass next_before as before for the next.",
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [
        { name: 'since', in: 'query', required: false, schema: { type: 'string', format: 'date-time' } },
        { name: 'tool', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'principal', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'before', in: 'query', required: false, schema: { type: 'integer' } },
      ],
      responses: {
        '200': ok(
          {
            type: 'object',
            properties: {
              entries: { type: 'array', items: { type: 'object' } },
              next_before: { type: 'integer' },
            },
          },
          'Entries.',
        ),
        ...errors(400, 401, 403),
      },
    },
  },
  '/v1/usage': {
    get: {
      operationId: 'readUsage',
      summary: 'What the tenant spent this UTC day and month (needs audit:read)',
      description:
        "Tool calls by tool and outcome (ok, accepted: a call that started a job, replayed, refused, failed), vendor calls by vendor, and skip traces (lookups that reached the vendor, and the matches BatchData bills), for the current UTC day and month, with when each resets. Every instance counts into one store when REDIS_URL is set (another instance's calls show within about a second).",
      tags: ['connections'],
      security: [{ bearer: [] }],
      responses: {
        '200': ok(
          {
            type: 'object',
            properties: {
              tenant: { type: 'string' },
              day: { type: 'object' },
              month: { type: 'object' },
            },
          },
          'Usage.',
        ),
        ...errors(401, 403, 503),
      },
    },
  },
  '/v1/grants': {
    get: {
      operationId: 'listGrants',
      summary: "The OAuth clients the caller authorised at the gateway's own authorization server",
      description:
        'Each grant: the client, its name and redirect hosts, the scopes granted, when, and until when. Never a token. `scope=tenant` lists every grant of the tenant (needs connections:manage).',
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [
        {
          name: 'scope',
          in: 'query',
          required: false,
          description: '`user` (default: your own grants) or `tenant` (needs connections:manage).',
          schema: { type: 'string', enum: ['user', 'tenant'], default: 'user' },
        },
      ],
      responses: {
        '200': ok(
          {
            type: 'object',
            properties: {
              tenant: { type: 'string' },
              scope: { type: 'string', enum: ['user', 'tenant'] },
              grants: { type: 'array', items: grant },
            },
          },
          'Grants, newest first.',
        ),
        ...errors(400, 401, 403, 503),
      },
    },
  },
  '/v1/grants/{grant_id}': {
    delete: {
      operationId: 'revokeGrant',
      summary: 'Revoke a grant: its refresh tokens stop working at once, its access tokens within their lifetime',
      description:
        "Your own grant, or any of your tenant's with connections:manage. Another tenant's grant is not found. Recorded in the audit log (oauth.grant_revoked).",
      tags: ['connections'],
      security: [{ bearer: [] }],
      parameters: [{ name: 'grant_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': ok(
          {
            type: 'object',
            properties: { revoked: { const: true }, grant_id: { type: 'string' }, client_id: { type: 'string' } },
          },
          'Revoked.',
        ),
        ...errors(401, 403, 404, 503),
      },
    },
  },
});
