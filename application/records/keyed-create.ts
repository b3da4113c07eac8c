import type { App } from '../../domain/records/app.js';
import type { ValidatedFields } from '../../domain/records/field-input.js';
import { conflict, type GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import type { WriteFlags } from '../../domain/records/revision.js';
import type { RecordRef, RecordStore } from '../../ports/record-store.js';
import type { UrlFetcher } from '../../ports/url-fetcher.js';
import { writeWithAttachments } from './attachments.js';

/**
 * Creates one record of a batch, at most once. As a job (issue 40) the record carries its idempotency mark
 * (the job id and the item's index) where the store keeps one; an item a stopped instance had started is
 * looked up by its mark first and written only if it is not there. A store that keeps no mark cannot tell,
 * so that item is reported as not known rather than written a second time.
 */
export const createOnce = (
  ports: { readonly store: RecordStore; readonly fetcher: UrlFetcher },
  app: App,
  fields: ValidatedFields,
  flags: WriteFlags,
  mark: { readonly key?: string; readonly resumed: boolean },
): TaskEither<GatewayError, RecordRef> => {
  const { store, fetcher } = ports;
  const { key } = mark;
  const create = writeWithAttachments(fields, fetcher, store, (f) =>
    key !== undefined && store.createKeyed
      ? store.createKeyed(app, f, flags, key)
      : store.createRef
        ? store.createRef(app, f, flags)
        : pipe(
            store.create(app, f, flags),
            TE.map((d) => ({ record_id: d.record_id, record_url: d.record_url })),
          ),
  );
  if (!mark.resumed || key === undefined) return create;
  if (!store.findKeyed)
    return TE.left(
      conflict(
        'The instance writing this record stopped during the write, and this backend keeps no mark to tell whether it was created: look for it before sending it again.',
        { idempotency_mark: key },
      ),
    );
  return pipe(
    store.findKeyed(app, key),
    TE.chain((found) => (found ? TE.right(found) : create)),
  );
};
