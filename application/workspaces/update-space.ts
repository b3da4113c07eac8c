import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { PRIVACIES, validateSpaceChanges } from '../../domain/workspaces/space.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NonEmptyString, NumericId, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call } from '../runtime/markdown.js';
import { UpdatedSpaceResult } from './workspace-results.js';

export const UpdateSpaceParams = params(
  { space_id: described(NumericId, 'The space to change.') },
  {
    name: described(NonEmptyString, 'New name.'),
    privacy: described(oneOf(PRIVACIES, 'Privacy'), 'open (employees can find and join it) or closed (members only).'),
    auto_join: described(t.boolean, 'Employees of the organization join automatically.'),
    url_label: described(
      NonEmptyString,
      'The last part of the space\'s web address: lower-case letters, digits and hyphens, such as "deal-flow".',
    ),
    post_on_new_app: described(t.boolean, 'Post to the space stream when an app is added.'),
    post_on_new_member: described(t.boolean, 'Post to the space stream when a member joins.'),
  },
);
export type UpdateSpaceParams = t.TypeOf<typeof UpdateSpaceParams>;

export interface UpdateSpaceResult {
  readonly updated: true;
  readonly space_id: number;
}

@injectable()
export class UpdateSpace implements UseCase<UpdateSpaceParams, UpdateSpaceResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: UpdateSpaceParams): TaskEither<GatewayError, UpdateSpaceResult> {
    const { space_id, ...changes } = p;
    return pipe(
      TE.fromEither(validateSpaceChanges(changes)),
      TE.chain((c) => this.directory.updateSpace(space_id, c)),
      TE.map(() => ({ updated: true as const, space_id })),
    );
  }
}

export const updateSpaceTool = defineTool({
  group: 'workspaces',
  name: 'updateSpace',
  title: 'Update space',
  description: "Changes a space's settings; only the values given change.",
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateSpaceParams,
  useCase: UpdateSpace,
  result: UpdatedSpaceResult,
  text: (r, p) => {
    const changed = Object.keys(p).filter((k) => k !== 'space_id');
    return `Space ${r.space_id} updated (${changed.join(', ')}). Read it back with ${call('workspaces_getSpace', { space_id: r.space_id })}.`;
  },
});
