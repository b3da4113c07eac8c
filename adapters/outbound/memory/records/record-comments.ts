// Comments on the in-memory records (the RecordComments port): deleted comments are gone for good.
import type { Comment, WriteFlags } from '../../../../domain/records/revision.js';
import { formatInZone, type FileValue } from '../../../../domain/records/values.js';
import { invalidInput, notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type TaskEither } from '../../../../domain/shared/fp.js';
import type { CommentPage, RecordComments } from '../../../../ports/record-comments.js';
import { roomFor } from '../demo-limits.js';
import type { RecordsState } from './records-state.js';

const gone = (commentId: number): GatewayError =>
  notFound(
    'comment',
    String(commentId),
    `Comment ${commentId} does not exist (deleted comments are gone for good). records_listRecordComments lists a record's comments.`,
  );

export class CommentBoard implements RecordComments {
  private readonly comments = new Map<number, Comment>();
  private nextCommentId = 91001;

  constructor(private readonly state: RecordsState) {}

  create(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment> {
    const state = this.state;
    const found = state.active(recordId);
    if (found._tag === 'Left') return TE.left(found.left);
    const room = roomFor('comments', this.comments.size, state.limits.comments);
    if (E.isLeft(room)) return TE.left(room.left);
    const files: FileValue[] = [];
    for (const id of fileIds) {
      const f = state.files.get(id);
      if (!f)
        return TE.left(
          invalidInput(
            `File ${id} does not exist. Upload it first with records_uploadFiles.`,
            'file_ids',
            'ids of uploaded files',
          ),
        );
      files.push(f);
    }
    const app = state.catalog.apps.get(found.right.data.app_id)!;
    const { id: _id, ...person } = state.person(state.account.actingUser(), app);
    const comment: Comment = {
      comment_id: this.nextCommentId++,
      created_on: formatInZone(state.clock.now(), state.timeZone),
      files,
      ref: { type: 'record', id: recordId },
      value,
      user: person,
      created_by: person,
    };
    this.comments.set(comment.comment_id, comment);
    state.fire('comment.create', comment.comment_id, flags);
    return TE.right(comment);
  }

  get(commentId: number): TaskEither<GatewayError, Comment> {
    const c = this.comments.get(commentId);
    return c ? TE.right(c) : TE.left(gone(commentId));
  }

  list(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage> {
    if (!this.state.records.has(recordId)) return TE.left(this.state.missing(recordId));
    const all = [...this.comments.values()].filter((c) => c.ref.id === recordId);
    return TE.right({ total: all.length, comments: all.slice(offset, offset + limit) });
  }

  delete(commentId: number, flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void> {
    if (!this.comments.has(commentId)) return TE.left(gone(commentId));
    this.comments.delete(commentId);
    this.state.fire('comment.delete', commentId, { ...flags, workflow: false });
    return TE.right(undefined);
  }

  /** Forgets a record's comments (its space was deleted). */
  dropRecord(recordId: number): void {
    for (const [id, c] of this.comments) if (c.ref.id === recordId) this.comments.delete(id);
  }
}
