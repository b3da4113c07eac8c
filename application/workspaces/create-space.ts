import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { PRIVACIES, validateNewSpace } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NonEmptyString, NumericId, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { CreatedSpaceResult } from './workspace-results.js';

export const CreateSpaceParams = params(
  {
    org_id: described(NumericId, 'From workspaces_getOrganizations.'),
    name: described(NonEmptyString, 'Name of the new space.'),
  },
  {
    privacy: described(
      oneOf(PRIVACIES, 'Privacy'),
      'open: employees can find and join it; closed: members only.',
      'closed',
    ),
    auto_join: described(t.boolean, 'Employees join automatically (open spaces).', false),
    post_on_new_app: described(t.boolean, 'Post to the space stream when an app is added.', true),
    post_on_new_member: described(t.boolean, 'Post to the space stream when a member joins.', true),
  },
);
export type CreateSpaceParams = t.TypeOf<typeof CreateSpaceParams>;

export interface CreateSpaceResult {
  readonly space_id: number;
  readonly url: string;
  readonly full_url: string;
}

const PODIO_WEB = 'https://podio.com';

@injectable()
export class CreateSpace implements UseCase<CreateSpaceParams, CreateSpaceResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: CreateSpaceParams): TaskEither<GatewayError, CreateSpaceResult> {
    return pipe(
      TE.fromEither(
        validateNewSpace({
          org_id: p.org_id,
          name: p.name,
          privacy: p.privacy,
          auto_join: p.auto_join,
          post_on_new_app: p.post_on_new_app,
          post_on_new_member: p.post_on_new_member,
        }),
      ),
      TE.chain((space) => this.directory.createSpace(space)),
      TE.map((c) => ({
        space_id: c.space_id,
        url: c.url,
        full_url: /^https?:\/\//.test(c.url) ? c.url : `${PODIO_WEB}/${c.url.replace(/^\/+/, '')}`,
      })),
    );
  }
}

export const createSpaceTool = defineTool({
  group: 'workspaces',
  name: 'createSpace',
  title: 'Create space',
  description:
    "Creates a space in an organization, with the gateway's user as its first admin. Then add people with workspaces_addMemberToSpace.",
  annotations: { kind: 'Write', idempotent: false },
  params: CreateSpaceParams,
  useCase: CreateSpace,
  result: CreatedSpaceResult,
  text: (r, p) =>
    [
      `## Space "${p.name.trim()}" created (space_id ${r.space_id})`,
      `**URL:** ${r.full_url}`,
      nextSteps([
        `Add people: ${call('workspaces_addMemberToSpace', { space_id: r.space_id, role: 'regular', mails: ['name@example.com'] })}`,
        `Read it: ${call('workspaces_getSpace', { space_id: r.space_id })}`,
      ]),
    ].join('\n\n'),
});
