import type { ServiceIdentifier } from 'inversify';
import type { Comment, WriteFlags } from '../domain/records/revision.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

export interface CommentPage {
  readonly total: number;
  readonly comments: readonly Comment[];
}

/** Comments on records. Contract: test/ports/record-comments.contract.ts. */
export interface RecordComments {
  create(
    recordId: number,
    value: string,
    fileIds: readonly number[],
    flags: WriteFlags,
  ): TaskEither<GatewayError, Comment>;
  get(commentId: number): TaskEither<GatewayError, Comment>;
  /** Oldest first. */
  list(recordId: number, offset: number, limit: number): TaskEither<GatewayError, CommentPage>;
  /** Permanent. */
  delete(commentId: number, flags: Pick<WriteFlags, 'silent' | 'hook'>): TaskEither<GatewayError, void>;
}

export const RecordComments = Symbol.for('RecordComments') as ServiceIdentifier<RecordComments>;
