import type { IncomingHttpHeaders } from 'node:http';
import { E } from '../../../domain/shared/fp.js';
import { describe, isObject, specs, type Json, type Operation } from './spec-catalogue.js';

// Every request the HubSpot stand-in receives is checked against the operation it matched in HubSpot's
// documents; answers of documented operations are checked against the documents too.

export interface SpecViolation {
  readonly method: string;
  readonly path: string;
  /** The document and path template the request was checked against, when one matched. */
  readonly operation?: string;
  readonly problems: readonly string[];
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, readonly string[]>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  status: number;
  /** The document operation the request was checked against (`crm-companies-v3 POST /crm/v3/objects/companies`). */
  operation?: string;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** A request that passed the check, with its path parameters and parsed body. */
export interface Checked {
  readonly op: Operation;
  readonly params: Record<string, string>;
  readonly query: Record<string, string[]>;
  readonly body: unknown;
}

/** The request against its operation: path and query parameters, Content-Type and body, and the bearer token's form. */
export const checkRequest = (op: Operation, entry: LoggedRequest, raw: string): E.Either<string[], Checked> => {
  const problems: string[] = [];
  const cat = specs();

  if (op.authenticated && !/^Bearer \S+$/.test(String(entry.headers['authorization'] ?? ''))) {
    problems.push('Authorization header must be "Bearer <token>" (the documents\' oauth2 / private-app security)');
  }

  const params: Record<string, string> = {};
  const match = op.pattern.exec(entry.path);
  op.pathParams.forEach((name, i) => {
    params[name] = decodeURIComponent(match?.[i + 1] ?? '');
  });
  for (const p of op.parameters) {
    const name = String(p['name']);
    const schema = isObject(p['schema']) ? p['schema'] : {};
    if (p['in'] === 'path') {
      const v = cat.validator('value', op.docId, schema);
      if (!v({ v: params[name] })) problems.push(...describe(v.errors, `path parameter ${name}`, true));
    }
    if (p['in'] === 'query') {
      const values = entry.query[name];
      if (!values) {
        if (p['required'] === true) problems.push(`query parameter ${name} is required`);
        continue;
      }
      const isArray = schema['type'] === 'array';
      if (!isArray && values.length > 1)
        problems.push(`query parameter ${name} is not an array but was given ${values.length} times`);
      const v = cat.validator('value', op.docId, schema);
      const data = { v: isArray ? [...values] : values[0] };
      if (!v(data)) problems.push(...describe(v.errors, `query parameter ${name}`, true));
    }
  }
  const declared = new Set(op.parameters.filter((p) => p['in'] === 'query').map((p) => String(p['name'])));
  for (const name of Object.keys(entry.query)) {
    if (!declared.has(name))
      problems.push(`query parameter "${name}" is not declared (declared: ${[...declared].join(', ') || 'none'})`);
  }

  let body: unknown;
  const contentType = String(entry.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const content = isObject(op.requestBody?.['content'])
    ? (op.requestBody['content'] as Record<string, Json>)
    : undefined;
  if (!content) {
    if (raw.length) problems.push('a body was sent but the operation declares none');
  } else if (!raw.length) {
    if (op.requestBody?.['required'] === true) problems.push('the request body is required');
  } else {
    const media = content[contentType];
    if (!media) {
      problems.push(
        `Content-Type "${contentType || '(none)'}" is not one the operation declares (${Object.keys(content).join(', ')})`,
      );
    } else {
      if (contentType === 'application/json') {
        try {
          body = JSON.parse(raw);
        } catch {
          problems.push('Invalid input JSON: the body is not JSON');
        }
      } else if (contentType === 'application/x-www-form-urlencoded') {
        const form = new URLSearchParams(raw);
        const fields: Json = {};
        for (const [k, v] of form) {
          if (k in fields) problems.push(`form field ${k} is given more than once`);
          fields[k] = v;
        }
        body = fields;
      }
      if (body !== undefined && isObject(media['schema'])) {
        const v = cat.validator('request', op.docId, media['schema']);
        if (!v(body)) problems.push(...describe(v.errors, 'body'));
      }
    }
  }
  return problems.length
    ? E.left(problems)
    : E.right({ op, params, query: entry.query as Record<string, string[]>, body });
};

/** How a success answer departs from the operation's documented responses, or undefined when it does not. */
export const responseViolation = (op: Operation, entry: LoggedRequest, reply: Reply): SpecViolation | undefined => {
  const declared = op.responses[String(reply.status)];
  if (!isObject(declared))
    return {
      method: entry.method,
      path: entry.path,
      operation: op.key,
      problems: [`status ${reply.status} is not documented`],
    };
  const schema = ((declared['content'] as Json | undefined)?.['application/json'] as Json | undefined)?.['schema'];
  if (!isObject(schema)) return undefined;
  const v = specs().validator('response', op.docId, schema);
  if (v(reply.body)) return undefined;
  return { method: entry.method, path: entry.path, operation: op.key, problems: describe(v.errors, 'response') };
};
