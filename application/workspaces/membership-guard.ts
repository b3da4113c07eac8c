import type { GatewayError } from '../../domain/shared/errors.js';
import { invalidInput } from '../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { checkKeepsAnAdmin, type SpaceRole } from '../../domain/workspaces/space.js';
import type { SpaceDirectory } from '../../ports/space-directory.js';

const ALL = 500;

/** Refuses a change that would leave the space without an admin, reading its active admins first. */
export const keepsAnAdmin = (
  directory: SpaceDirectory,
  spaceId: number,
  userIds: readonly number[],
  newRole?: SpaceRole,
): TaskEither<GatewayError, void> =>
  userIds.length === 0
    ? TE.left(invalidInput('Name at least one user id.', 'user_ids', 'non-empty array of user ids'))
    : pipe(
        directory.members(spaceId, { member_type: 'admin', limit: ALL, offset: 0 }),
        TE.chain((page) =>
          TE.fromEither(
            pipe(
              checkKeepsAnAdmin(
                spaceId,
                page.members.filter((m) => m.role === 'admin' && m.status === 'active').map((m) => m.profile.user_id),
                userIds,
                newRole,
              ),
              E.map(() => undefined),
            ),
          ),
        ),
      );
