import * as t from 'io-ts';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { decodingPath, lenient } from '../http/vendor-codecs.js';

// BatchData V1 property skip-trace, as read by the gateway. Only `status` and `results.persons` are
// relied on; everything else is optional, and a field of an unexpected type is dropped rather than
// failing the whole answer (no verbatim matched V1 response was available to check field names against).

/** A string; a number is accepted as its decimal text (zips, phone numbers). */
const Text = new t.Type<string, unknown, unknown>(
  'Text',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string'
      ? t.success(u)
      : typeof u === 'number' && Number.isFinite(u)
        ? t.success(String(u))
        : t.failure(u, c),
  (a) => a,
);

const Num = new t.Type<number, unknown, unknown>(
  'Num',
  (u): u is number => typeof u === 'number' && Number.isFinite(u),
  (u, c) => {
    const n = typeof u === 'string' && u.trim() !== '' ? Number(u) : u;
    return typeof n === 'number' && Number.isFinite(n) ? t.success(n) : t.failure(u, c);
  },
  (a) => a,
);

/** A boolean; "true"/"false" and 1/0 are accepted too. */
const Flag = new t.Type<boolean, unknown, unknown>(
  'Flag',
  (u): u is boolean => typeof u === 'boolean',
  (u, c) => {
    if (typeof u === 'boolean') return t.success(u);
    if (u === 'true' || u === 1) return t.success(true);
    if (u === 'false' || u === 0) return t.success(false);
    return t.failure(u, c);
  },
  (a) => a,
);

const opt = lenient;
const text = lenient(Text);
const flag = lenient(Flag);
const num = lenient(Num);

export const V1Address = t.partial({
  street: text,
  city: text,
  state: text,
  zip: text,
  county: text,
  hash: text,
  houseNumber: text,
  streetNoUnit: text,
  formattedStreet: text,
  addressValidity: text,
  unitType: text,
  unitNumber: text,
  zipPlus4: text,
});
export type V1Address = t.TypeOf<typeof V1Address>;

export const V1Name = t.partial({ first: text, last: text, middle: text, full: text });
export type V1Name = t.TypeOf<typeof V1Name>;

export const V1Phone = t.partial({
  number: text,
  carrier: text,
  type: text,
  lastReportedDate: text,
  score: num,
  tcpa: flag,
  tested: flag,
  dnc: flag,
  reachable: flag,
});
export type V1Phone = t.TypeOf<typeof V1Phone>;

/** V3 and the docs say `email`; BatchData's own sample code reads `address`. A bare string is accepted too. */
export const V1Email = t.union([Text, t.partial({ email: text, address: text, tested: flag })]);
export type V1Email = t.TypeOf<typeof V1Email>;

export const V1PersonMeta = t.partial({ matched: flag, error: flag, errorMessage: text, message: text });

export const V1Person = t.partial({
  name: opt(V1Name),
  meta: opt(V1PersonMeta),
  dnc: opt(t.partial({ tcpa: flag })),
  death: opt(t.partial({ deceased: flag })),
  litigator: flag,
  bankruptcy: opt(t.partial({ bankruptcy: flag, filingDate: opt(t.union([Text, t.null])) })),
  phoneNumbers: opt(t.array(opt(V1Phone))),
  emails: opt(t.array(opt(V1Email))),
  property: opt(
    t.partial({
      owner: opt(t.partial({ name: opt(V1Name), mailingAddress: opt(V1Address) })),
      address: opt(V1Address),
    }),
  ),
  mailingAddress: opt(V1Address),
  propertyAddress: opt(V1Address),
  requestId: text,
});
export type V1Person = t.TypeOf<typeof V1Person>;

export const V1Counts = t.partial({ requestCount: num, matchCount: num, noMatchCount: num, errorCount: num });
export type V1Counts = t.TypeOf<typeof V1Counts>;

export const V1ResultsMeta = t.partial({
  apiVersion: text,
  requestId: text,
  performance: opt(t.partial({ startTime: text, endTime: text, totalRequestTime: num })),
  results: opt(V1Counts),
});
export type V1ResultsMeta = t.TypeOf<typeof V1ResultsMeta>;

export const V1Status = t.intersection([t.type({ code: Num }), t.partial({ text, message: text })]);
export type V1Status = t.TypeOf<typeof V1Status>;

/** `POST /api/v1/property/skip-trace` answered 2xx. */
export const V1SkipTraceResponse = t.type({
  status: V1Status,
  results: t.intersection([t.type({ persons: t.array(V1Person) }), t.partial({ meta: opt(V1ResultsMeta) })]),
});
export type V1SkipTraceResponse = t.TypeOf<typeof V1SkipTraceResponse>;

/** BatchData's error format, `{status:{code,text,message}}`, read leniently; a top-level `message` is read too. */
export const V1ErrorBody = t.partial({ status: opt(t.partial({ code: num, text, message: text })), message: text });
export type V1ErrorBody = t.TypeOf<typeof V1ErrorBody>;

/** A 2xx answer that is no skip-trace answer. */
export const unexpectedShape = (httpStatus: number, errors: t.Errors): GatewayError => {
  const where = decodingPath(errors);
  return upstreamFailure(
    'BatchData',
    `BatchData answered with an unexpected shape (HTTP ${httpStatus}${where ? `, at "${where}"` : ''}): a skip-trace answer needs "status" and "results.persons". The gateway's BatchData adapter may need updating; retrying will not help.`,
    { retryable: false, status: httpStatus },
  );
};
