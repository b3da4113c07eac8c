import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { MEMBER_TYPES, type MemberPage, type SpaceMember } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, intRange, MAX_OFFSET, NumericId, oneOf, params, t, withoutDefaults } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { memberTable } from './workspace-text.js';
import { MembersResult } from './workspace-results.js';

export const GetSpaceMembersParams = params(
  { space_id: described(NumericId, 'The space whose members to list.') },
  {
    member_type: described(
      oneOf(MEMBER_TYPES, 'MemberType'),
      'Only these members: employee (of the organization), external, admin, regular, light (by role), or guest (pending invitations).',
    ),
    query: described(t.string, 'Only members whose name contains this text (or whose email starts with it).'),
    limit: described(intRange(1, 500), 'Members per page.', 100),
    offset: described(intRange(0, MAX_OFFSET), 'Members to skip.', 0),
  },
);
export type GetSpaceMembersParams = t.TypeOf<typeof GetSpaceMembersParams>;

export interface GetSpaceMembersResult {
  readonly space_id: number;
  readonly page: MemberPage;
  readonly limit: number;
  readonly offset: number;
}

@injectable()
export class GetSpaceMembers implements UseCase<GetSpaceMembersParams, GetSpaceMembersResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: GetSpaceMembersParams): TaskEither<GatewayError, GetSpaceMembersResult> {
    const { limit, offset } = p;
    return pipe(
      this.directory.members(p.space_id, {
        member_type: p.member_type,
        query: p.query?.trim() || undefined,
        limit,
        offset,
      }),
      TE.map((page) => ({ space_id: p.space_id, page, limit, offset })),
    );
  }
}

/** A member in the spec's shape: the membership, and the person as `profile`. */
const memberJson = (m: SpaceMember) => ({
  role: m.role,
  employee: m.employee,
  is_partner: m.is_partner,
  grants: m.grants,
  status: m.status,
  profile: m.profile,
});

export const getSpaceMembersTool = defineTool({
  group: 'workspaces',
  name: 'getSpaceMembers',
  title: 'List space members',
  description:
    "Lists a space's members: user_id (for the membership tools), profile_id (for contact fields of records), name, role, and whether active or invited.",
  annotations: { kind: 'Read', idempotent: true },
  params: GetSpaceMembersParams,
  useCase: GetSpaceMembers,
  result: MembersResult,
  rows: { key: 'members' },
  continuation: (p, r, shown) =>
    shown < r.page.members.length || r.page.total === undefined || r.offset + shown < r.page.total
      ? { ...p, offset: r.offset + shown }
      : undefined,
  json: (r) => ({
    space_id: r.space_id,
    offset: r.offset,
    total: r.page.total ?? null,
    members: r.page.members.map(memberJson),
  }),
  text: (r, p) => {
    const { members, total } = r.page;
    const filtered = p.member_type !== undefined || (p.query?.trim() ?? '') !== '';
    if (members.length === 0) {
      return r.offset > 0 && (total ?? 1) > 0
        ? `No members on this page of space ${r.space_id} (offset ${r.offset}). Start again with offset 0.`
        : `No members of space ${r.space_id}${filtered ? ' match the filter. Try without member_type or query' : ''}.`;
    }
    const first = r.offset + 1;
    const last = r.offset + members.length;
    const more = total !== undefined ? last < total : members.length === r.limit;
    return {
      before: `## Members of space ${r.space_id}${filtered ? ' (filtered)' : ''}`,
      position: total !== undefined ? `Showing ${first}-${last} of ${total}.` : `Showing ${first}-${last}.`,
      ...memberTable(members),
      more: more
        ? `Next page: ${call('workspaces_getSpaceMembers', { ...withoutDefaults(GetSpaceMembersParams, p), offset: last })}`
        : undefined,
      after: nextSteps([
        'Change roles with workspaces_updateSpaceMemberships; remove members or cancel invitations with workspaces_endSpaceMemberships (both take user_id).',
      ]),
    };
  },
});
