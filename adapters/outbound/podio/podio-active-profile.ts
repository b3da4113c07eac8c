import type { GatewayError } from '../../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { PodioClient } from './podio-client.js';
import { PodioUserStatus } from './podio-codecs.js';

/**
 * The profile id of the Podio user the gateway acts as, read once from `GET /user/status`
 * (`profile.profile_id`), the route the official clients use (podio-php `PodioUserStatus::get`).
 */
export const podioActiveProfile = (podio: PodioClient): (() => TaskEither<GatewayError, number>) => {
  let profileId: number | undefined;
  return () => {
    if (profileId !== undefined) return TE.right(profileId);
    return pipe(
      podio.task('GET', '/user/status', { codec: PodioUserStatus }),
      TE.map((status) => (profileId = status.profile.profile_id)),
    );
  };
};
