import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import type { Organisation } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { fields, nextSteps, plural, table } from '../runtime/markdown.js';
import { OrganizationsResult } from './workspace-results.js';

export const GetOrganizationsParams = params({}, {});
export type GetOrganizationsParams = t.TypeOf<typeof GetOrganizationsParams>;

export interface GetOrganizationsResult {
  readonly organizations: readonly Organisation[];
}

@injectable()
export class GetOrganizations implements UseCase<GetOrganizationsParams, GetOrganizationsResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(): TaskEither<GatewayError, GetOrganizationsResult> {
    return pipe(
      this.directory.organisations(),
      TE.map((organizations) => ({ organizations })),
    );
  }
}

export const getOrganizationsTool = defineTool({
  group: 'workspaces',
  name: 'getOrganizations',
  title: 'List organizations and their spaces',
  description:
    'Lists your organizations with org_id and their spaces (space_id, name, privacy, your role): the ids the other workspaces tools take.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetOrganizationsParams,
  useCase: GetOrganizations,
  result: OrganizationsResult,
  text: ({ organizations }) => {
    if (organizations.length === 0)
      return "The gateway's Podio user belongs to no organization, so no space can be created or read.";
    const blocks = organizations.map((o) =>
      [
        `### ${o.name} (org_id ${o.org_id})`,
        fields([
          ['URL', o.url],
          [
            'Space user limit',
            o.user_limit !== undefined
              ? `${o.user_limit} members per space (active members and pending invitations)`
              : undefined,
          ],
        ]),
        o.spaces.length
          ? table(
              ['space_id', 'name', 'privacy', 'your role', 'url'],
              o.spaces.map((s) => [s.space_id, s.name, s.privacy, s.role ?? '', s.url]),
            )
          : 'No spaces yet.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
    const first = organizations[0]!;
    const spaces = organizations.reduce((n, o) => n + o.spaces.length, 0);
    return [
      `## Organizations: ${organizations.length} (${plural(spaces, 'space')})`,
      ...blocks,
      nextSteps([
        `Create a space: workspaces_createSpace {"org_id":${first.org_id},"name":"..."}`,
        'Read one space or its members: workspaces_getSpace / workspaces_getSpaceMembers with a space_id from the tables.',
      ]),
    ].join('\n\n');
  },
});
