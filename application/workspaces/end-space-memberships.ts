import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { keepsAnAdmin } from './membership-guard.js';
import type { MembershipStatus } from './update-space-memberships.js';
import { MembershipsEndedResult } from './workspace-results.js';

export const EndSpaceMembershipsParams = params(
  {
    space_id: described(NumericId, 'The space.'),
    user_ids: described(t.array(NumericId), 'user_id values from workspaces_getSpaceMembers.'),
  },
  {},
);
export type EndSpaceMembershipsParams = t.TypeOf<typeof EndSpaceMembershipsParams>;

@injectable()
export class EndSpaceMemberships implements UseCase<EndSpaceMembershipsParams, MembershipStatus> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  preview(p: EndSpaceMembershipsParams): TaskEither<GatewayError, Preview> {
    const ids = [...new Set(p.user_ids)];
    return pipe(
      this.directory.members(p.space_id, { limit: 500, offset: 0 }),
      TE.map((page) => {
        const byUser = new Map(page.members.map((m) => [m.profile.user_id, m]));
        const people = ids.map((id) => {
          const m = byUser.get(id);
          return m
            ? { user_id: id, name: m.profile.name, role: m.role, status: m.status }
            : { user_id: id, name: undefined, role: undefined, status: 'not a member' };
        });
        const words = people.map((x) =>
          x.name ? `${x.name} (user ${x.user_id}, ${x.role}, ${x.status})` : `user ${x.user_id} (not a member)`,
        );
        return {
          summary: `end the membership or invitation of ${words.join(', ')} in space ${p.space_id}`,
          facts: { space_id: p.space_id, people },
          reason: 'it removes people from a workspace',
        };
      }),
    );
  }

  execute(p: EndSpaceMembershipsParams): TaskEither<GatewayError, MembershipStatus> {
    const ids = [...new Set(p.user_ids)];
    return pipe(
      keepsAnAdmin(this.directory, p.space_id, ids),
      TE.chain(() => this.directory.endMemberships(p.space_id, ids)),
      TE.map(() => ({ status: 'ok' as const })),
    );
  }
}

export const endSpaceMembershipsTool = defineTool({
  group: 'workspaces',
  name: 'endSpaceMemberships',
  title: 'Remove members from space',
  description:
    'Removes members from a space, or cancels their pending invitations, by user_id; they lose access at once. The last admin cannot be removed.',
  annotations: { kind: 'Destructive', idempotent: false },
  params: EndSpaceMembershipsParams,
  useCase: EndSpaceMemberships,
  result: MembershipsEndedResult,
  text: (_r, p) =>
    `Ended the membership or cancelled the invitation of user ${[...new Set(p.user_ids)].join(', ')} in space ${p.space_id}. They no longer have access to it.`,
});
