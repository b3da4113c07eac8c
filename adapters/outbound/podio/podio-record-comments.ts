import * as t from 'io-ts';
import type { Comment, WriteFlags } from '../../../domain/records/revision.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { CommentPage, RecordComments } from '../../../ports/record-comments.js';
import type { PodioClient } from './podio-client.js';
import { PodioObject, PodioObjects } from './podio-codecs.js';
import { num } from './podio-record-json.js';
import { flagQuery, toComment } from './podio-record-mapping.js';

/** Comments on Podio items (`/comment/item/{id}/`, `/comment/{id}`). */
export class PodioRecordComments implements RecordComments {
  constructor(private readonly podio: PodioClient) {}

  create(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment> {
    return pipe(
      this.podio.task('POST', `/comment/item/${recordId}/`, {
        codec: PodioObject,
        query: { ...flagQuery(flags), alert_invite: false },
        body: { value, file_ids: fileIds },
        resource: { kind: 'record', id: recordId },
      }),
      TE.chain((r) => this.podio.task('GET', `/comment/${num(r['comment_id']) ?? 0}`, { codec: PodioObject })),
      TE.map(toComment),
    );
  }

  get(commentId: number): TaskEither<GatewayError, Comment> {
    return pipe(
      this.podio.task('GET', `/comment/${commentId}`, {
        codec: PodioObject,
        resource: { kind: 'comment', id: commentId },
      }),
      TE.map(toComment),
    );
  }

  list(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage> {
    return pipe(
      this.podio.task('GET', `/comment/item/${recordId}/`, {
        codec: PodioObjects,
        resource: { kind: 'record', id: recordId },
      }),
      TE.map((all) => ({ total: all.length, comments: all.slice(offset, offset + limit).map(toComment) })),
    );
  }

  delete(commentId: number, flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void> {
    return pipe(
      this.podio.task('DELETE', `/comment/${commentId}`, {
        codec: t.unknown,
        query: { silent: flags.silent, hook: flags.hook },
        resource: { kind: 'comment', id: commentId },
      }),
      TE.map(() => undefined),
    );
  }
}
