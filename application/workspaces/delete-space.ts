import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';

export const DeleteSpaceParams = params({ space_id: described(NumericId, 'The space to delete for good.') }, {});
export type DeleteSpaceParams = t.TypeOf<typeof DeleteSpaceParams>;

export interface DeleteSpaceResult {
  readonly deleted: true;
  readonly space_id: number;
}

@injectable()
export class DeleteSpace implements UseCase<DeleteSpaceParams, DeleteSpaceResult> {
  constructor(@inject(SpaceDirectory) private readonly directory: SpaceDirectory) {}

  execute(p: DeleteSpaceParams): TaskEither<GatewayError, DeleteSpaceResult> {
    return pipe(
      this.directory.deleteSpace(p.space_id),
      TE.map(() => ({ deleted: true as const, space_id: p.space_id })),
    );
  }
}

export const deleteSpaceTool = defineTool({
  group: 'workspaces',
  name: 'deleteSpace',
  title: 'Delete space',
  description:
    'Deletes a space permanently. It CANNOT be undone: every membership ends, pending invitations are cancelled, and all apps in the space with all their records, comments and files are deleted with it. Make sure with workspaces_getSpace that it is the right space first.',
  annotations: { kind: 'Destructive', idempotent: false },
  params: DeleteSpaceParams,
  useCase: DeleteSpace,
  text: (r) =>
    `Space ${r.space_id} deleted permanently: its memberships and pending invitations ended, and its apps and their records are gone. This cannot be undone.`,
});
