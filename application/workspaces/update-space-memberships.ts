import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { SPACE_ROLES } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NumericId, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
import { keepsAnAdmin } from './membership-guard.js';
import { MembershipStatusResult } from './workspace-results.js';

export const UpdateSpaceMembershipsParams = params(
  {
    space_id: described(NumericId, 'The space.'),
    user_ids: described(t.array(NumericId), 'user_id values (not profile ids) from workspaces_getSpaceMembers.'),
    role: described(oneOf(SPACE_ROLES, 'SpaceRole'), 'The new role.'),
  },
  {},
);
export type UpdateSpaceMembershipsParams = t.TypeOf<typeof UpdateSpaceMembershipsParams>;

export interface MembershipStatus {
  readonly status: 'ok';
}

@injectable()
export class UpdateSpaceMemberships implements UseCase<UpdateSpaceMembershipsParams, MembershipStatus> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: UpdateSpaceMembershipsParams): TaskEither<GatewayError, MembershipStatus> {
    const ids = [...new Set(p.user_ids)];
    return pipe(
      keepsAnAdmin(this.directory, p.space_id, ids, p.role),
      TE.chain(() => this.directory.updateRoles(p.space_id, ids, p.role)),
      TE.map(() => ({ status: 'ok' as const })),
    );
  }
}

export const updateSpaceMembershipsTool = defineTool({
  group: 'workspaces',
  name: 'updateSpaceMemberships',
  title: 'Change member roles',
  description: 'Gives members of a space a new role, by user id. Demoting the last admin is refused.',
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateSpaceMembershipsParams,
  useCase: UpdateSpaceMemberships,
  result: MembershipStatusResult,
  text: (_r, p) =>
    `Role ${p.role} set for user ${[...new Set(p.user_ids)].join(', ')} in space ${p.space_id}. Check with ${call('workspaces_getSpaceMembers', { space_id: p.space_id })}.`,
});
