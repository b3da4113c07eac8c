import * as t from 'io-ts';
import { decodingPath, lenient } from '../http/vendor-codecs.js';
import { upstreamFailure, type UpstreamFailure } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';

// HubSpot's answers as the gateway reads them (the anti-corruption layer). Required members are the
// ones the documents mark required and the adapter relies on; a different shape becomes an
// UpstreamFailure, never an exception.

/** An object id: HubSpot sends strings; a number is accepted and turned into its decimal text. */
const Id = new t.Type<string, unknown, unknown>(
  'Id',
  (u): u is string => typeof u === 'string',
  (u, c) =>
    typeof u === 'string' && u !== ''
      ? t.success(u)
      : typeof u === 'number' && Number.isSafeInteger(u)
        ? t.success(String(u))
        : t.failure(u, c),
  (a) => a,
);

/** A property value: a string, or null when unset. Numbers and booleans are read as their text. */
const PropertyValue = new t.Type<string | null, unknown, unknown>(
  'PropertyValue',
  (u): u is string | null => u === null || typeof u === 'string',
  (u, c) => {
    if (u === null || u === undefined) return t.success(null);
    if (typeof u === 'string') return t.success(u);
    if (typeof u === 'number' || typeof u === 'boolean') return t.success(String(u));
    return t.failure(u, c);
  },
  (a) => a,
);

export const SimplePublicObject = t.intersection([
  t.type({
    id: Id,
    properties: t.record(t.string, PropertyValue),
    createdAt: t.string,
    updatedAt: t.string,
    archived: t.boolean,
  }),
  t.partial({ archivedAt: lenient(t.string), url: lenient(t.string) }),
]);
export type SimplePublicObject = t.TypeOf<typeof SimplePublicObject>;

export const SearchResponse = t.intersection([
  t.type({ total: t.number, results: t.array(SimplePublicObject) }),
  t.partial({
    paging: lenient(t.partial({ next: t.intersection([t.type({ after: t.string }), t.partial({ link: t.string })]) })),
  }),
]);
export type SearchResponse = t.TypeOf<typeof SearchResponse>;

const PropertyOption = t.intersection([
  t.type({ label: t.string, value: t.string }),
  t.partial({ hidden: lenient(t.boolean) }),
]);

export const PropertyDefinitionBody = t.intersection([
  t.type({ name: t.string, label: t.string, type: t.string, fieldType: t.string }),
  t.partial({
    description: lenient(t.string),
    groupName: lenient(t.string),
    options: t.array(PropertyOption),
    calculated: lenient(t.boolean),
    modificationMetadata: lenient(t.partial({ readOnlyValue: lenient(t.boolean) })),
  }),
]);
export type PropertyDefinitionBody = t.TypeOf<typeof PropertyDefinitionBody>;

export const PropertiesResponse = t.type({ results: t.array(PropertyDefinitionBody) });

const StringMap = t.record(t.string, t.unknown);

/** HubSpot's error body (the documents' `Error` plus the live `status`, and the 429 members). */
export const ErrorBody = t.partial({
  status: lenient(t.string),
  message: lenient(t.string),
  correlationId: lenient(t.string),
  category: lenient(t.string),
  subCategory: lenient(t.string),
  errorType: lenient(t.string),
  policyName: lenient(t.string),
  context: lenient(StringMap),
  errors: lenient(
    t.array(
      t.partial({
        message: lenient(t.string),
        code: lenient(t.string),
        in: lenient(t.string),
        subCategory: lenient(t.string),
        context: lenient(StringMap),
      }),
    ),
  ),
});
export type ErrorBody = t.TypeOf<typeof ErrorBody>;

export const TokenResponse = t.intersection([
  t.type({ access_token: t.string, expires_in: t.number }),
  t.partial({ refresh_token: lenient(t.string), token_type: lenient(t.string), hub_id: lenient(t.number) }),
]);

/** A token endpoint's 200 answer, decoded (or the gateway's error naming what was missing). */
export const decodeTokenAnswer = (data: unknown, status: number) =>
  decodeOrUnexpected(TokenResponse, data, status, 'an OAuth token answer needs "access_token" and "expires_in"');

export const unexpectedShape = (status: number, errors: t.Errors, expectation: string): UpstreamFailure => {
  const where = decodingPath(errors);
  return upstreamFailure(
    'HubSpot',
    `HubSpot answered with an unexpected shape (HTTP ${status}${where ? `, at "${where}"` : ''}): ${expectation}. The gateway's HubSpot adapter may need updating; retrying will not help.`,
    { retryable: false, status },
  );
};

export const decodeOrUnexpected = <A>(
  codec: t.Type<A, unknown, unknown>,
  data: unknown,
  status: number,
  expectation: string,
): Either<UpstreamFailure, A> => {
  const decoded = codec.decode(data);
  return E.isLeft(decoded) ? E.left(unexpectedShape(status, decoded.left, expectation)) : E.right(decoded.right);
};

/**
 * `GET /account-info/v3/details` (developers.hubspot.com/docs/api/settings/account-information-api): the
 * account's id, web host and time zone. Only what the gateway uses is read, each member leniently.
 */
export const AccountDetails = t.partial({
  portalId: lenient(t.number),
  uiDomain: lenient(t.string),
  timeZone: lenient(t.string),
});
export type AccountDetails = t.TypeOf<typeof AccountDetails>;
