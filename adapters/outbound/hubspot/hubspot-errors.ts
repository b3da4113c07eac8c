import type { PropertyValues } from '../../../domain/crm/contact.js';
import {
  conflict,
  invalidInput,
  notFound,
  rateLimited,
  upstreamFailure,
  type GatewayError,
} from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import { retryAfterSeconds } from '../http/vendor-http.js';
import { msUntilNextMidnight } from '../http/zoned-day.js';
import { ErrorBody } from './hubspot-codecs.js';

// HubSpot's error answers as the gateway's errors, with messages that say what to do next. Pure
// functions: the client acts on `invalidateToken`.

const VENDOR = 'HubSpot';
const MAX_DAILY_WAIT_SECONDS = 86_400;
const SHORT_POLICY_WAIT_SECONDS = 10;

/** What a call does, for error messages, and the OAuth scope HubSpot requires for it. */
export interface Operation {
  readonly what: string;
  readonly scope: string;
  readonly resource: string;
  /** Set when the call writes property values, so a property error names `values.<name>`. */
  readonly writesValues?: boolean;
}

export const OP = {
  createContact: {
    what: 'create a contact',
    scope: 'crm.objects.contacts.write',
    resource: 'contact',
    writesValues: true,
  },
  readContact: { what: 'read a contact', scope: 'crm.objects.contacts.read', resource: 'contact' },
  updateContact: {
    what: 'update a contact',
    scope: 'crm.objects.contacts.write',
    resource: 'contact',
    writesValues: true,
  },
  archiveContact: { what: 'archive a contact', scope: 'crm.objects.contacts.write', resource: 'contact' },
  searchContacts: { what: 'search contacts', scope: 'crm.objects.contacts.read', resource: 'contact' },
  searchCompanies: { what: 'find a company by name', scope: 'crm.objects.companies.read', resource: 'company' },
  createCompany: { what: 'create a company', scope: 'crm.objects.companies.write', resource: 'company' },
  contactProperties: { what: 'list contact properties', scope: 'crm.schemas.contacts.read', resource: 'property' },
  companyProperties: { what: 'list company properties', scope: 'crm.schemas.companies.read', resource: 'property' },
} as const satisfies Record<string, Operation>;

export interface ErrorContext {
  readonly id?: string;
  readonly values?: PropertyValues;
  /** The account's time zone, when known (its daily limit resets at midnight there). */
  readonly timeZone?: string;
}

const unique = (names: readonly string[]): string[] => [...new Set(names)];

const redact = (text: string, token: string): string => (token ? text.split(token).join('[redacted]') : text);

const clip = (text: string, max = 400): string => (text.length > max ? `${text.slice(0, max)}…` : text);

const stringsIn = (u: unknown): string[] =>
  Array.isArray(u) ? u.filter((x): x is string => typeof x === 'string') : typeof u === 'string' ? [u] : [];

interface PropertyProblem {
  readonly name?: string;
  readonly code?: string;
  readonly message?: string;
}

/** The property errors HubSpot reports: in `errors[]` (code, context.propertyName) or as JSON inside `message`. */
const propertyProblems = (body: ErrorBody): PropertyProblem[] => {
  const found: PropertyProblem[] = [];
  for (const e of body.errors ?? []) {
    const ctx = e.context ?? {};
    const name = stringsIn(ctx['propertyName'])[0] ?? stringsIn(ctx['name'])[0] ?? quotedProperty(e.message);
    found.push({ name, code: e.code, message: e.message });
  }
  const message = body.message ?? '';
  const json = message.indexOf('[');
  if (/not valid/i.test(message) && json >= 0) {
    try {
      const parsed: unknown = JSON.parse(message.slice(json));
      if (Array.isArray(parsed)) {
        for (const p of parsed) {
          if (typeof p !== 'object' || p === null) continue;
          const r = p as Record<string, unknown>;
          found.push({
            name: typeof r['name'] === 'string' ? r['name'] : undefined,
            code: typeof r['error'] === 'string' ? r['error'] : undefined,
            message: typeof r['message'] === 'string' ? r['message'] : undefined,
          });
        }
      }
    } catch {
      // not JSON after all: the message is used as it is
    }
  }
  if (!found.some((p) => p.name)) {
    const name = quotedProperty(message);
    if (name) found.unshift({ name, message });
  }
  return found;
};

const quotedProperty = (message: string | undefined): string | undefined =>
  message?.match(/propert(?:y|ies)\s+["'`]([A-Za-z0-9_.-]+)["'`]/i)?.[1] ??
  message?.match(/["'`]([A-Za-z0-9_.-]+)["'`]\s+is a read[ -]only property/i)?.[1];

/** Seconds until the next midnight in the time zone, DST included (UTC when unknown or not a zone Intl knows). */
export const secondsUntilMidnight = (now: Date, timeZone = 'UTC'): number =>
  Math.ceil(msUntilNextMidnight(now.getTime(), timeZone) / 1000);

/**
 * Seconds a short-policy 429 without Retry-After asks for, from the same answer's rate-limit headers: the
 * rolling interval when `X-HubSpot-RateLimit-Remaining` is 0, a second when `-Secondly-Remaining` is 0
 * (see vendorWaitMs in ../http/resilience.ts for the sources); undefined without them.
 */
const shortPolicySeconds = (headers: Record<string, unknown> | undefined): number | undefined => {
  const h = (name: string) => (typeof headers?.[name] === 'string' ? (headers[name] as string).trim() : undefined);
  let ms: number | undefined;
  if (h('x-hubspot-ratelimit-remaining') === '0') {
    const interval = Number(h('x-hubspot-ratelimit-interval-milliseconds') ?? '10000');
    ms = Number.isFinite(interval) && interval > 0 ? Math.min(interval, 60_000) : 10_000;
  }
  if (h('x-hubspot-ratelimit-secondly-remaining') === '0') ms = Math.max(ms ?? 0, 1000);
  return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));
};

const inWords = (seconds: number): string =>
  seconds < 120
    ? `${seconds} seconds`
    : seconds < 7200
      ? `${Math.ceil(seconds / 60)} minutes`
      : `${Math.round(seconds / 360) / 10} hours`;

/** A HubSpot error answer, as the client received it. */
export interface HubSpotErrorAnswer {
  readonly status: number;
  readonly data: unknown;
  /** The Retry-After header, read on a 429. */
  readonly retryAfter: unknown;
  /** The answer's headers (HubSpot's rate-limit counts), read on a 429 without Retry-After. */
  readonly headers?: Record<string, unknown>;
  /** The access token the request carried, kept out of every message. */
  readonly token: string;
}

export interface HubSpotFailure {
  readonly error: GatewayError;
  /** HubSpot rejected the access token (401): the cached one must not be used again. */
  readonly invalidateToken: boolean;
}

/** A HubSpot error answer as the gateway's error. */
export const hubspotError = (
  op: Operation,
  answer: HubSpotErrorAnswer,
  ctx: ErrorContext,
  clock: Clock,
): HubSpotFailure => ({
  error: errorOf(op, answer, ctx, clock),
  invalidateToken: answer.status === 401,
});

const errorOf = (op: Operation, answer: HubSpotErrorAnswer, ctx: ErrorContext, clock: Clock): GatewayError => {
  const { status, token } = answer;
  const decodedBody = ErrorBody.decode(answer.data);
  const body: ErrorBody = E.isRight(decodedBody) ? decodedBody.right : {};
  const said = body.message ? clip(redact(body.message, token)) : undefined;
  const ref = body.correlationId ? ` (HubSpot correlation id ${body.correlationId})` : '';

  if (status === 400 || status === 422) return invalid(op, body, said, token);
  if (status === 401) {
    return upstreamFailure(
      VENDOR,
      `HubSpot rejected the gateway's credentials (HTTP 401${body.category ? `, ${body.category}` : ''}). The gateway's HubSpot connection must be re-authorised by an operator; retrying will not help.`,
      { retryable: false, reauthorize: true, status },
    );
  }
  if (status === 403) {
    const scopes = unique([
      ...(body.errors ?? []).flatMap((e) => [
        ...stringsIn(e.context?.['requiredGranularScopes']),
        ...stringsIn(e.context?.['requiredScopes']),
      ]),
      ...stringsIn(body.context?.['missingScopes']),
      ...stringsIn(body.context?.['requiredScopes']),
    ]);
    const needed = scopes.length ? scopes : [op.scope];
    return upstreamFailure(
      VENDOR,
      `HubSpot refused to ${op.what} (HTTP 403): the gateway's HubSpot connection lacks the scope ${needed.join(' or ')}. The connection must be re-authorised with that scope granted (private app: add the scope; OAuth app: reinstall it with the scope); retrying will not help.`,
      { retryable: false, reauthorize: true, status },
    );
  }
  if (status === 404) {
    return notFound(op.resource, ctx.id ?? '', `HubSpot has no such ${op.resource}${ctx.id ? ` (id ${ctx.id})` : ''}.`);
  }
  if (status === 409) {
    const existing = said?.match(/Existing ID:\s*(\d+)/i)?.[1];
    const email = ctx.values?.['email'];
    const who =
      email && op.resource === 'contact'
        ? `A contact with email ${email}`
        : `A ${op.resource} with the same unique value`;
    return conflict(
      existing
        ? `${who} already exists (id ${existing}). Update that contact instead.`
        : `${who} already exists in HubSpot${said ? `: ${said}` : '.'}`,
      {
        ...(existing ? { existing_id: existing } : {}),
        ...(body.correlationId ? { correlation_id: body.correlationId } : {}),
      },
    );
  }
  if (status === 429) {
    const now = clock.now();
    const header = retryAfterSeconds(answer.retryAfter, now);
    const daily = (body.policyName ?? '').toUpperCase() === 'DAILY';
    const seconds =
      header ??
      (daily
        ? Math.min(MAX_DAILY_WAIT_SECONDS, Math.max(60, secondsUntilMidnight(now, ctx.timeZone)))
        : (shortPolicySeconds(answer.headers) ?? SHORT_POLICY_WAIT_SECONDS));
    const at = new Date(now.getTime() + seconds * 1000).toISOString();
    return rateLimited(
      daily
        ? `HubSpot's daily API call limit for this account is used up (it resets at midnight in the account's time zone${ctx.timeZone ? `, ${ctx.timeZone}` : ', taken as UTC until the account is known'}). Retry in about ${inWords(seconds)}, after ${at}.`
        : `HubSpot's rate limit was reached${body.policyName ? ` (${body.policyName})` : ''}. Retry in ${inWords(seconds)}.`,
      seconds,
    );
  }
  if (status >= 500) {
    return upstreamFailure(VENDOR, `HubSpot failed with HTTP ${status}${ref}. Try again shortly.`, {
      retryable: true,
      status,
    });
  }
  return upstreamFailure(
    VENDOR,
    `HubSpot answered HTTP ${status} when asked to ${op.what}${said ? `: ${said}` : ''}${ref}.`,
    { retryable: false, status },
  );
};

const invalid = (op: Operation, body: ErrorBody, said: string | undefined, token: string): GatewayError => {
  const details = {
    ...(body.category ? { hubspot_category: body.category } : {}),
    ...(body.correlationId ? { correlation_id: body.correlationId } : {}),
  };
  const problems = propertyProblems(body);
  const problem = problems.find((p) => p.name) ?? problems[0];
  const name = problem?.name;
  const theirs = problem?.message ? clip(redact(problem.message, token)) : said;
  const parameter = name && op.writesValues ? `values.${name}` : undefined;
  switch (problem?.code) {
    case 'PROPERTY_DOESNT_EXIST':
      return invalidInput(
        `Property "${name}" does not exist in HubSpot. crm_getProperties lists the properties that exist.`,
        parameter,
        'name of an existing property',
        { ...details, hubspot_code: problem.code },
      );
    case 'INVALID_OPTION':
      return invalidInput(
        `Property "${name}" does not accept that value: HubSpot takes the internal value of one of its options, not the label. crm_getProperties lists the options.${theirs ? ` HubSpot said: ${theirs}` : ''}`,
        parameter,
        'internal value of one of the options',
        { ...details, hubspot_code: problem.code },
      );
    case 'READ_ONLY_VALUE':
      return invalidInput(
        `Property "${name}" is read-only and set by HubSpot itself; leave it out.`,
        parameter,
        'writable property',
        { ...details, hubspot_code: problem.code },
      );
    default:
      if (name) {
        return invalidInput(
          `HubSpot rejected the value of property "${name}"${theirs ? `: ${theirs}` : '.'} crm_getProperties describes the property's type and options.`,
          parameter,
          undefined,
          { ...details, ...(problem?.code ? { hubspot_code: problem.code } : {}) },
        );
      }
      return invalidInput(
        `HubSpot rejected the request to ${op.what}${said ? `: ${said}` : '.'}`,
        undefined,
        undefined,
        details,
      );
  }
};
