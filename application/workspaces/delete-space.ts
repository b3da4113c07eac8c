import { inject, injectable } from 'inversify';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { SpaceDirectory } from '../../ports/space-directory.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { RecordApps } from '../../ports/record-apps.js';
import { RecordStore } from '../../ports/record-store.js';
import { DeletedSpaceResult } from './workspace-results.js';

const MAX_COUNTED = 20;

export const DeleteSpaceParams = params({ space_id: described(NumericId, 'The space.') }, {});
export type DeleteSpaceParams = t.TypeOf<typeof DeleteSpaceParams>;

export interface DeleteSpaceResult {
  readonly deleted: true;
  readonly space_id: number;
}

@injectable()
export class DeleteSpace implements UseCase<DeleteSpaceParams, DeleteSpaceResult> {
  constructor(
    @inject(SpaceDirectory) private readonly directory: SpaceDirectory,
    @inject(RecordApps) private readonly apps: RecordApps,
    @inject(RecordStore) private readonly records: RecordStore,
  ) {}

  /** The space, its apps and how many records each holds (counted for the first MAX_COUNTED apps). */
  preview(p: DeleteSpaceParams): TaskEither<GatewayError, Preview> {
    const count = (appId: number) =>
      pipe(
        this.apps.getApp(appId),
        TE.chain((app) =>
          this.records.query(app, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: true }),
        ),
        TE.map((page) => page.total),
      );
    return pipe(
      TE.Do,
      TE.apS('space', this.directory.getSpace(p.space_id)),
      TE.apS('apps', this.apps.listApps(p.space_id)),
      TE.chain(({ space, apps }) =>
        pipe(
          TE.sequenceSeqArray(apps.slice(0, MAX_COUNTED).map((a) => count(a.id))),
          TE.map((counts) => {
            const listed = apps.map((a, i) => ({ app_id: a.id, name: a.name, records: counts[i] }));
            const known = counts.reduce((sum, n) => sum + n, 0);
            const records = apps.length > MAX_COUNTED ? `at least ${known}` : String(known);
            const names = listed.map((a) => (a.records === undefined ? a.name : `${a.name} (${a.records})`));
            return {
              summary: `delete space ${space.space_id} "${space.name}" for good, with its ${apps.length} app(s)${names.length ? ` ${names.join(', ')}` : ''} and ${records} record(s); this cannot be undone`,
              facts: {
                space_id: space.space_id,
                name: space.name,
                apps: listed,
                records: known,
                every_app_counted: apps.length <= MAX_COUNTED,
              },
            };
          }),
        ),
      ),
    );
  }

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
    'Deletes a space for good, with its memberships, invitations, and all its apps, records, comments and files. It CANNOT be undone: check it with workspaces_getSpace first.',
  annotations: { kind: 'Destructive', idempotent: false },
  params: DeleteSpaceParams,
  useCase: DeleteSpace,
  result: DeletedSpaceResult,
  text: (r) =>
    `Space ${r.space_id} deleted permanently: its memberships and pending invitations ended, and its apps and their records are gone. This cannot be undone.`,
});
