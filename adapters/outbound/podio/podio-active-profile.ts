import type { GatewayError } from '../../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { PodioClient } from './podio-client.js';
import { PodioObject } from './podio-codecs.js';
import { num } from './podio-record-json.js';

/** The profile id of the Podio user the gateway acts as (`GET /user/profile/`), read once. */
export const podioActiveProfile = (podio: PodioClient): (() => TaskEither<GatewayError, number>) => {
  let profileId: number | undefined;
  return () => {
    if (profileId !== undefined) return TE.right(profileId);
    return pipe(
      podio.task('GET', '/user/profile/', { codec: PodioObject }),
      TE.map((p) => (profileId = num(p['profile_id']) ?? 0)),
    );
  };
};
