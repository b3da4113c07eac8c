import type { GatewayError } from '../../../domain/shared/errors.js';
import { E, type TaskEither } from '../../../domain/shared/fp.js';
import type { DocumentReader, DocumentText } from '../../../ports/document-reader.js';
import type { ParserPool } from './parser-pool.js';

/** files_readFile's reader: every file is read in the parser pool (tasks.ts readFileText), within its bounds. */
export class PooledDocumentReader implements DocumentReader {
  constructor(private readonly pool: ParserPool) {}

  read(
    bytes: Uint8Array,
    fileName: string,
    contentType?: string,
    deadline?: number,
    owner?: string,
  ): TaskEither<GatewayError, DocumentText> {
    return async () => {
      const got = await this.pool.run(
        { op: 'file', bytes, fileName, ...(contentType ? { contentType } : {}) },
        deadline,
        owner,
      );
      if (E.isLeft(got)) return got;
      const outcome = got.right;
      return E.right(
        outcome.ok ? outcome.value : { kind: 'unreadable', reason: `the file could not be read (${outcome.message})` },
      );
    };
  }
}
