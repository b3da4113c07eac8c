import { inject, injectable } from 'inversify';
import { decodeCursor, encodeCursor } from '../../domain/records/filters.js';
import type { Comment } from '../../domain/records/revision.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordComments } from '../../ports/record-comments.js';
import { described, intRange, NonEmptyString, NumericId, params, t, withoutDefaults } from '../runtime/codecs.js';
import type { Preview } from '../runtime/confirm.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, nextSteps } from '../runtime/markdown.js';
import { flagsOf } from './common.js';
import { CommentResult, CommentsResult, DeletedCommentResult } from './record-results.js';

const commentText = (c: Comment): string =>
  [
    `## Comment ${c.comment_id} on record ${c.ref.id}`,
    `**By:** ${c.created_by.name} (user ${c.created_by.user_id})\n**On:** ${c.created_on}${c.files.length ? `\n**Files:** ${c.files.map((f) => `${f.name} (file ${f.file_id})`).join(', ')}` : ''}`,
    c.value,
  ].join('\n\n');

const silentParam = described(t.boolean, 'true: no notifications to followers.', false);
const hookParam = described(t.boolean, 'false: no webhooks.', true);

export const CreateRecordCommentParams = params(
  {
    record_id: described(NumericId, 'The record to comment on.'),
    value: described(NonEmptyString, 'The comment text.'),
  },
  {
    file_ids: described(t.array(NumericId), 'Ids from records_uploadFiles.'),
    silent: silentParam,
    hook: hookParam,
  },
);
export type CreateRecordCommentParams = t.TypeOf<typeof CreateRecordCommentParams>;

@injectable()
export class CreateRecordComment implements UseCase<CreateRecordCommentParams, Comment> {
  constructor(@inject(RecordComments) private readonly comments: RecordComments) {}
  execute(p: CreateRecordCommentParams): TaskEither<GatewayError, Comment> {
    return this.comments.create(p.record_id, p.value, p.file_ids ?? [], flagsOf(p));
  }
}

export const createRecordCommentTool = defineTool({
  group: 'records',
  name: 'createRecordComment',
  title: 'Comment on a record',
  description: 'Adds a comment to a record, optionally with files (ids from records_uploadFiles).',
  annotations: { kind: 'Write', idempotent: false },
  params: CreateRecordCommentParams,
  useCase: CreateRecordComment,
  result: CommentResult,
  text: (c) =>
    [commentText(c), nextSteps([`All comments: ${call('records_listRecordComments', { record_id: c.ref.id })}`])].join(
      '\n',
    ),
});

export const GetRecordCommentParams = params({ comment_id: described(NumericId, 'The comment id.') }, {});
export type GetRecordCommentParams = t.TypeOf<typeof GetRecordCommentParams>;

@injectable()
export class GetRecordComment implements UseCase<GetRecordCommentParams, Comment> {
  constructor(@inject(RecordComments) private readonly comments: RecordComments) {}
  execute(p: GetRecordCommentParams): TaskEither<GatewayError, Comment> {
    return this.comments.get(p.comment_id);
  }
}

export const getRecordCommentTool = defineTool({
  group: 'records',
  name: 'getRecordComment',
  title: 'Get a comment',
  description: 'One comment by comment_id: text, author, time, files and the record it belongs to.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetRecordCommentParams,
  useCase: GetRecordComment,
  result: CommentResult,
  text: commentText,
});

export const ListRecordCommentsParams = params(
  { record_id: described(NumericId, 'The record whose comments to list.') },
  {
    limit: described(intRange(1, 100), 'Comments per page.', 30),
    cursor: described(NonEmptyString, 'From the previous page.'),
  },
);
export type ListRecordCommentsParams = t.TypeOf<typeof ListRecordCommentsParams>;

export interface CommentList {
  readonly record_id: number;
  readonly total: number;
  readonly offset: number;
  readonly comments: readonly Comment[];
  readonly cursor: string | null;
}

@injectable()
export class ListRecordComments implements UseCase<ListRecordCommentsParams, CommentList> {
  constructor(@inject(RecordComments) private readonly comments: RecordComments) {}
  execute(p: ListRecordCommentsParams): TaskEither<GatewayError, CommentList> {
    const { limit } = p;
    return pipe(
      TE.fromEither(decodeCursor(p.cursor)),
      TE.chainW((offset) =>
        pipe(
          this.comments.list(p.record_id, offset, limit),
          TE.map((page) => ({
            record_id: p.record_id,
            total: page.total,
            offset,
            comments: page.comments,
            cursor: offset + limit < page.total ? encodeCursor(offset + limit) : null,
          })),
        ),
      ),
    );
  }
}

export const listRecordCommentsTool = defineTool({
  group: 'records',
  name: 'listRecordComments',
  title: 'List the comments of a record',
  description: 'The comments of a record, oldest first, a page at a time (cursor).',
  annotations: { kind: 'Read', idempotent: true },
  params: ListRecordCommentsParams,
  useCase: ListRecordComments,
  result: CommentsResult,
  json: (r) => ({ cursor: r.cursor, comments: r.comments, total: r.total }),
  rows: { key: 'comments', cursor: 'cursor' },
  continuation: (p, r, shown) =>
    r.offset + shown < r.total ? { ...p, cursor: encodeCursor(r.offset + shown) } : undefined,
  text: (r, p) =>
    r.comments.length === 0
      ? `## Record ${r.record_id} has no comments${r.total ? ' on this page' : ''}\n\nAdd one: ${call('records_createRecordComment', { record_id: r.record_id, value: '...' })}`
      : {
          before: `## Comments on record ${r.record_id}: ${r.total}`,
          position: `Showing ${r.offset + 1}-${r.offset + r.comments.length} of ${r.total}.`,
          columns: ['comment_id', 'by', 'on', 'text'],
          rows: r.comments.map((c) => [
            c.comment_id,
            c.created_by.name,
            c.created_on,
            c.value.length > 200 ? `${c.value.slice(0, 200)}...` : c.value,
          ]),
          more: r.cursor
            ? `Next page: ${call('records_listRecordComments', { ...withoutDefaults(ListRecordCommentsParams, p), cursor: r.cursor })}`
            : 'This is the last page.',
        },
});

export const DeleteRecordCommentParams = params(
  { comment_id: described(NumericId, 'The comment to delete.') },
  { silent: silentParam, hook: hookParam },
);
export type DeleteRecordCommentParams = t.TypeOf<typeof DeleteRecordCommentParams>;

@injectable()
export class DeleteRecordComment implements UseCase<DeleteRecordCommentParams, Record<string, never>> {
  constructor(@inject(RecordComments) private readonly comments: RecordComments) {}
  preview(p: DeleteRecordCommentParams): TaskEither<GatewayError, Preview> {
    return pipe(
      this.comments.get(p.comment_id),
      TE.map((c) => {
        const excerpt = c.value.length > 80 ? `${c.value.slice(0, 80)}…` : c.value;
        return {
          summary: `delete comment ${c.comment_id} by ${c.created_by.name} on record ${c.ref.id} ("${excerpt}"), permanently`,
          facts: {
            comment_id: c.comment_id,
            record_id: c.ref.id,
            by: c.created_by.name,
            created_on: c.created_on,
            text: excerpt,
          },
        };
      }),
    );
  }

  execute(p: DeleteRecordCommentParams): TaskEither<GatewayError, Record<string, never>> {
    return pipe(
      this.comments.delete(p.comment_id, { silent: p.silent ?? false, hook: p.hook ?? true }),
      TE.map(() => ({})),
    );
  }
}

export const deleteRecordCommentTool = defineTool({
  group: 'records',
  name: 'deleteRecordComment',
  title: 'Delete a comment',
  description: 'Deletes a comment permanently; it cannot be undone.',
  annotations: { kind: 'Destructive', idempotent: true },
  params: DeleteRecordCommentParams,
  useCase: DeleteRecordComment,
  result: DeletedCommentResult,
  text: (_r, p) => `## Comment ${p.comment_id} deleted permanently`,
});
