import { randomUUID } from 'node:crypto';
import type { AxiosInstance, AxiosResponse } from 'axios';
import type * as t from 'io-ts';
import {
  invalidInput,
  rateLimited,
  upstreamFailure,
  type GatewayError,
} from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import {
  rankPhones,
  type EmailAddress,
  type Person,
  type PersonName,
  type PhoneNumber,
  type PostalAddress,
  type PropertyIdentity,
  type SkipTraceMeta,
  type SkipTraceResult,
} from '../../../domain/skiptrace/skip-trace.js';
import type { SkipTracer } from '../../../ports/skip-tracer.js';
import { createVendorHttp, retryAfterSeconds, transportFailure } from '../http/vendor-http.js';
import {
  V1ErrorBody,
  V1SkipTraceResponse,
  type V1Address,
  type V1Email,
  type V1Name,
  type V1Person,
  type V1Phone,
} from './batchdata-codecs.js';

const VENDOR = 'BatchData';
const SKIP_TRACE_PATH = '/api/v1/property/skip-trace';
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export interface BatchDataSkipTracerOptions {
  /** Scheme and host only, such as https://api.batchdata.com. */
  readonly baseUrl: string;
  readonly apiToken: string;
  readonly timeoutMs: number;
}

/** Skip tracing through BatchData's synchronous V1 property skip-trace, one property per call. */
export class BatchDataSkipTracer implements SkipTracer {
  readonly #http: AxiosInstance;
  readonly #token: string;
  readonly #endpoint: string;

  constructor(options: BatchDataSkipTracerOptions) {
    const baseURL = options.baseUrl.trim().replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.#token = options.apiToken.trim();
    this.#endpoint = `${baseURL}${SKIP_TRACE_PATH}`;
    this.#http = createVendorHttp({
      vendor: VENDOR,
      baseURL,
      timeoutMs: options.timeoutMs,
      headers: { Authorization: `Bearer ${this.#token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    });
  }

  trace(identity: PropertyIdentity): TaskEither<GatewayError, SkipTraceResult> {
    if (!this.#token) {
      return TE.left(
        upstreamFailure(VENDOR, 'No BatchData API token is configured; an operator must set BATCHDATA_API_TOKEN.', {
          retryable: false,
          reauthorize: true,
        }),
      );
    }
    return pipe(
      TE.fromEither(skipTraceRequest(identity)),
      TE.chain((request) => {
        const startedAt = new Date();
        return pipe(
          TE.tryCatch(
            () => this.#http.post<unknown>(SKIP_TRACE_PATH, { requests: [request] }),
            (e) => transportFailure(VENDOR, e),
          ),
          TE.chainEitherK((res) => this.#interpret(res, identity, startedAt, new Date())),
        );
      }),
    );
  }

  #interpret(res: AxiosResponse<unknown>, identity: PropertyIdentity, startedAt: Date, endedAt: Date): Either<GatewayError, SkipTraceResult> {
    if (res.status < 200 || res.status >= 300) return E.left(this.#failure(res.status, res));
    const decoded = V1SkipTraceResponse.decode(res.data);
    if (E.isLeft(decoded)) {
      const code = bodyStatusCode(res.data);
      return E.left(code !== undefined && code >= 400 ? this.#failure(code, res) : unexpectedShape(res.status, decoded.left));
    }
    const body = decoded.right;
    if (body.status.code >= 400) return E.left(this.#failure(body.status.code, res));
    return E.right(toResult(body, identity, startedAt, endedAt));
  }

  #failure(code: number, res: AxiosResponse<unknown>): GatewayError {
    const said = this.#vendorMessage(res.data);
    const quoted = said ? ` (${said})` : ` (HTTP ${code})`;
    if (code === 401) {
      return upstreamFailure(VENDOR, `BatchData rejected the gateway's API token${quoted}; an operator must configure a valid BATCHDATA_API_TOKEN.`, {
        retryable: false,
        reauthorize: true,
        status: code,
      });
    }
    if (code === 403) {
      return upstreamFailure(
        VENDOR,
        `BatchData refused the gateway's API token access to property skip trace${quoted}; an operator must configure a BATCHDATA_API_TOKEN that is valid and allowed to use skip trace.`,
        { retryable: false, reauthorize: true, status: code },
      );
    }
    if (code === 400 || code === 422) {
      return invalidInput(`BatchData rejected the property lookup: ${said ?? 'Bad Request'}`, undefined, undefined, { vendorStatus: code });
    }
    if (code === 404) {
      return upstreamFailure(
        VENDOR,
        `BatchData has no skip-trace endpoint at ${this.#endpoint}${quoted}; an operator must check the BatchData base URL, BATCHDATA_BASE_URL (normally https://api.batchdata.com). Retrying will not help.`,
        { retryable: false, status: code },
      );
    }
    if (code === 429) {
      const wait = retryAfterSeconds(res.headers['retry-after']) ?? DEFAULT_RETRY_AFTER_SECONDS;
      return rateLimited(
        `BatchData's rate limit was reached${said ? ` (${said})` : ''}: it allows 3,000 requests per minute per API token and may block the token temporarily when that is exceeded. Wait ${wait} seconds before retrying, and back off further if it happens again.`,
        wait,
      );
    }
    if (code >= 500) {
      return upstreamFailure(
        VENDOR,
        `BatchData failed with HTTP ${code}${said ? ` (${said})` : ''}. A skip trace changes nothing, so retrying the same call is safe; try again shortly.`,
        { retryable: true, status: code },
      );
    }
    return upstreamFailure(VENDOR, `BatchData answered HTTP ${code}${said ? ` (${said})` : ''}, which the gateway does not expect from skip trace.`, {
      retryable: false,
      status: code,
    });
  }

  /** BatchData's own words from an error body, without the token should it ever be echoed. */
  #vendorMessage(data: unknown): string | undefined {
    const body = V1ErrorBody.decode(data);
    if (E.isLeft(body)) return undefined;
    const said = (body.right.status?.message ?? body.right.status?.text ?? body.right.message)?.trim();
    if (!said) return undefined;
    return said.split(this.#token).join('[redacted]').slice(0, 300);
  }
}

const bodyStatusCode = (data: unknown): number | undefined => {
  const body = V1ErrorBody.decode(data);
  return E.isRight(body) ? body.right.status?.code : undefined;
};

const unexpectedShape = (httpStatus: number, errors: t.Errors): GatewayError => {
  const where = errors[0]?.context
    .map((c) => c.key)
    .filter(Boolean)
    .join('.');
  return upstreamFailure(
    VENDOR,
    `BatchData answered with an unexpected shape (HTTP ${httpStatus}${where ? `, at "${where}"` : ''}): a skip-trace answer needs "status" and "results.persons". The gateway's BatchData adapter may need updating; retrying will not help.`,
    { retryable: false, status: httpStatus },
  );
};

const compact = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** One item of `requests`, in one of the documented forms; FIPS wins over a county name when both are known. */
export const skipTraceRequest = (id: PropertyIdentity): Either<GatewayError, Record<string, unknown>> => {
  if (id.kind === 'address') {
    return E.right({ propertyAddress: compact({ street: id.street, city: id.city, state: id.state, zip: id.zip }) });
  }
  if (id.countyFipsCode) return E.right({ apn: id.apn, countyFipsCode: id.countyFipsCode });
  if (id.county) return E.right(compact({ apn: id.apn, county: id.county, state: id.state }));
  return E.left(invalidInput('An apn needs its county: add "county" (with "state") or "county_fips_code".', 'county', 'string'));
};

const ADDRESS_FIELDS = [
  'street', 'city', 'state', 'zip', 'county', 'hash', 'houseNumber', 'streetNoUnit', 'formattedStreet', 'addressValidity', 'unitType', 'unitNumber', 'zipPlus4',
] as const;

const toAddress = (a: V1Address | undefined): PostalAddress | undefined => {
  if (!a) return undefined;
  const out: Record<string, string> = {};
  for (const k of ADDRESS_FIELDS) {
    const v = a[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
};

const toName = (n: V1Name | undefined): PersonName | undefined =>
  n ? compact({ first: n.first, middle: n.middle, last: n.last, full: n.full }) : undefined;

const toPhone = (p: V1Phone | undefined): PhoneNumber[] =>
  p?.number
    ? [
        compact({
          number: p.number,
          carrier: p.carrier,
          type: p.type,
          lastReportedDate: p.lastReportedDate,
          score: p.score,
          tcpa: p.tcpa,
          tested: p.tested,
          dnc: p.dnc,
          reachable: p.reachable,
        }),
      ]
    : [];

const toEmail = (e: V1Email | undefined): EmailAddress[] => {
  if (typeof e === 'string') return e.trim() ? [{ email: e }] : [];
  const email = e?.email ?? e?.address;
  return email ? [compact({ email, tested: e?.tested })] : [];
};

const toPerson = (p: V1Person): Person => {
  const error = p.meta?.error ?? false;
  const hasContactData = Boolean(p.name || p.phoneNumbers?.length || p.emails?.length);
  const owner = p.property?.owner;
  const propertyOwner = owner ? compact({ name: toName(owner.name), mailingAddress: toAddress(owner.mailingAddress) }) : undefined;
  return compact({
    name: toName(p.name),
    meta: compact({
      matched: p.meta?.matched ?? (!error && hasContactData),
      error,
      errorMessage: p.meta?.errorMessage ?? p.meta?.message,
    }),
    dnc: p.dnc?.tcpa === undefined ? undefined : { tcpa: p.dnc.tcpa },
    death: p.death?.deceased === undefined ? undefined : { deceased: p.death.deceased },
    litigator: p.litigator,
    bankruptcy: p.bankruptcy
      ? { bankruptcy: p.bankruptcy.bankruptcy ?? Boolean(p.bankruptcy.filingDate), filingDate: p.bankruptcy.filingDate ?? null }
      : undefined,
    phoneNumbers: p.phoneNumbers ? rankPhones(p.phoneNumbers.flatMap(toPhone)) : undefined,
    emails: p.emails ? p.emails.flatMap(toEmail) : undefined,
    property: p.property ? compact({ owner: propertyOwner, address: toAddress(p.property.address) }) : undefined,
    mailingAddress: toAddress(p.mailingAddress),
    propertyAddress: toAddress(p.propertyAddress),
  });
};

/** The property as the caller gave it, for a miss that came back without any person. */
const noMatch = (id: PropertyIdentity): Person => ({
  propertyAddress: id.kind === 'address' ? compact({ street: id.street, city: id.city, state: id.state, zip: id.zip }) : compact({ county: id.county, state: id.state }),
  meta: { matched: false, error: false },
});

const toResult = (body: V1SkipTraceResponse, identity: PropertyIdentity, startedAt: Date, endedAt: Date): SkipTraceResult => {
  const decodedPersons = body.results.persons.map(toPerson);
  const persons = decodedPersons.length ? decodedPersons : [noMatch(identity)];
  const meta = body.results.meta;
  const given = meta?.results;
  const errorCount = persons.filter((p) => p.meta.error).length;
  const matchCount = persons.filter((p) => p.meta.matched && !p.meta.error).length;
  const perf = meta?.performance;
  const results: SkipTraceMeta = {
    apiVersion: meta?.apiVersion ?? 'v1',
    performance:
      perf?.startTime !== undefined && perf.endTime !== undefined && perf.totalRequestTime !== undefined
        ? { startTime: perf.startTime, endTime: perf.endTime, totalRequestTime: perf.totalRequestTime }
        : { startTime: startedAt.toISOString(), endTime: endedAt.toISOString(), totalRequestTime: endedAt.getTime() - startedAt.getTime() },
    requestId: meta?.requestId ?? randomUUID(),
    results: {
      requestCount: given?.requestCount ?? 1,
      matchCount: given?.matchCount ?? matchCount,
      noMatchCount: given?.noMatchCount ?? persons.length - matchCount - errorCount,
      errorCount: given?.errorCount ?? errorCount,
    },
  };
  return {
    status: { code: body.status.code, text: body.status.text ?? 'OK' },
    results: { meta: results, persons },
  };
};
