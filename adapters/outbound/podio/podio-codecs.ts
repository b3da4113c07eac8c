import * as t from 'io-ts';
import { upstreamFailure, type UpstreamFailure } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import { decodingPath, lenient } from '../http/vendor-codecs.js';

// Podio's answers that every Podio adapter shares: the error body, the OAuth token answer, and the
// decoding helper that turns a wrong shape into an UpstreamFailure instead of an exception.

export const PODIO = 'Podio';

/** Podio's error body: `{error, error_description, error_detail, error_parameters, error_propagate, request}`. */
export const PodioErrorBody = t.partial({
  error: lenient(t.string),
  error_description: lenient(t.string),
  error_detail: lenient(t.unknown),
  error_parameters: lenient(t.UnknownRecord),
  error_propagate: lenient(t.boolean),
  request: lenient(t.partial({ url: lenient(t.string), query_string: lenient(t.string), method: lenient(t.string) })),
});
export type PodioErrorBody = t.TypeOf<typeof PodioErrorBody>;

/** The answer of `POST /oauth/token/v2`: `{access_token, token_type, expires_in, refresh_token, ref, scope}`. */
export const PodioTokenResponse = t.intersection([
  t.type({ access_token: t.string, expires_in: t.number }),
  t.partial({
    refresh_token: lenient(t.string),
    token_type: lenient(t.string),
    scope: lenient(t.string),
    ref: lenient(t.partial({ type: lenient(t.string), id: lenient(t.number) })),
  }),
]);
export type PodioTokenResponse = t.TypeOf<typeof PodioTokenResponse>;

export const podioUnexpectedShape = (status: number, errors: t.Errors, what: string): UpstreamFailure => {
  const where = decodingPath(errors);
  return upstreamFailure(
    PODIO,
    `Podio answered ${what} with an unexpected shape (HTTP ${status}${where ? `, at "${where}"` : ''}). The gateway's Podio adapter may need updating; retrying will not help.`,
    { retryable: false, status },
  );
};

export const decodePodio = <A>(
  codec: t.Type<A, unknown, unknown>,
  data: unknown,
  status: number,
  what: string,
): Either<UpstreamFailure, A> => {
  const decoded = codec.decode(data);
  return E.isLeft(decoded) ? E.left(podioUnexpectedShape(status, decoded.left, what)) : E.right(decoded.right);
};

/** `GET /user/status` (podio-php PodioUserStatus): the acting user, with their profile. */
export const PodioUserStatus = t.type({ profile: t.type({ profile_id: t.number }) });
