import * as t from 'io-ts';
import type { Comment, WriteFlags } from '../../../domain/records/revision.js';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { CommentPage, RecordComments } from '../../../ports/record-comments.js';
import type { PodioClient } from './podio-client.js';
import { PodioComment, PodioCommentCount } from './podio-record-codecs.js';
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
        codec: PodioComment,
        query: { ...flagQuery(flags), alert_invite: false },
        body: { value, file_ids: fileIds },
        resource: { kind: 'record', id: recordId },
      }),
      TE.chain((r) => this.podio.task('GET', `/comment/${r.comment_id}`, { codec: PodioComment })),
      TE.map(toComment),
    );
  }

  get(commentId: number): TaskEither<GatewayError, Comment> {
    return pipe(
      this.podio.task('GET', `/comment/${commentId}`, {
        codec: PodioComment,
        resource: { kind: 'comment', id: commentId },
      }),
      TE.map(toComment),
    );
  }

  /**
   * One page from Podio (`limit`/`offset`, as podio-php's PodioComment::get_for passes them), asking for one
   * comment more than the page to learn whether more follow. Only then is the item read for its
   * `comment_count`, the total Podio's comment list does not carry.
   */
  list(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage> {
    return pipe(
      this.podio.task('GET', `/comment/item/${recordId}/`, {
        codec: t.array(PodioComment),
        query: { offset, limit: limit + 1 },
        resource: { kind: 'record', id: recordId },
      }),
      TE.chain((page) => {
        const comments = page.slice(0, limit).map(toComment);
        if (page.length <= limit) return TE.right({ total: offset + page.length, comments });
        return pipe(
          this.podio.task('GET', `/item/${recordId}`, {
            codec: PodioCommentCount,
            query: { mark_as_viewed: false },
            resource: { kind: 'record', id: recordId },
          }),
          TE.map((item) => ({ total: Math.max(item.comment_count ?? 0, offset + page.length), comments })),
        );
      }),
    );
  }

  /** `DELETE /comment/{id}`: no client sends `hook`/`silent` here (podio-php PodioComment::delete), so neither does the gateway. */
  delete(commentId: number, _flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void> {
    return pipe(
      this.podio.task('DELETE', `/comment/${commentId}`, {
        codec: t.unknown,
        resource: { kind: 'comment', id: commentId },
      }),
      TE.map(() => undefined),
    );
  }
}
