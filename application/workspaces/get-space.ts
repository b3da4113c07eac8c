import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import type { Space, SpaceDetails } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { spaceText } from './workspace-text.js';
import { SpaceResult } from './workspace-results.js';

export const GetSpaceParams = params(
  { space_id: described(NumericId, 'The space id; workspaces_getOrganizations lists them.') },
  {
    verbose: described(t.boolean, 'Also its creation, organization name, and your role and rights.', false),
  },
);
export type GetSpaceParams = t.TypeOf<typeof GetSpaceParams>;

const essentials = (s: SpaceDetails): Space => ({
  space_id: s.space_id,
  name: s.name,
  org_id: s.org_id,
  url: s.url,
  url_label: s.url_label,
  privacy: s.privacy,
  type: s.type,
  auto_join: s.auto_join,
  post_on_new_app: s.post_on_new_app,
  post_on_new_member: s.post_on_new_member,
});

@injectable()
export class GetSpace implements UseCase<GetSpaceParams, SpaceDetails> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: GetSpaceParams): TaskEither<GatewayError, SpaceDetails> {
    return pipe(
      this.directory.getSpace(p.space_id),
      TE.map((s) => (p.verbose ? s : essentials(s))),
    );
  }
}

export const getSpaceTool = defineTool({
  group: 'workspaces',
  name: 'getSpace',
  title: 'Get space',
  description: 'Reads one space: name, org_id, url, privacy, type and settings.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetSpaceParams,
  useCase: GetSpace,
  result: SpaceResult,
  text: (s, p) =>
    [
      spaceText(s, p.verbose === true),
      nextSteps([
        `Members: ${call('workspaces_getSpaceMembers', { space_id: s.space_id })}`,
        'Change settings with workspaces_updateSpace.',
      ]),
    ].join('\n\n'),
});
