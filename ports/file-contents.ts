import type { ServiceIdentifier } from 'inversify';
import type { Item } from '../domain/files/item.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

/** A file's current bytes, read whole up to a limit. */
export interface FileBytes {
  readonly item: Item;
  readonly bytes: Uint8Array;
  readonly contentType?: string;
}

/**
 * The contents of files, for agents without their own HTTP access (files_readFile, files_writeFile).
 * Contract: test/ports/file-contents.contract.ts.
 */
export interface FileContents {
  /** The current version's bytes; a folder is InvalidInput, a file above `maxBytes` is InvalidInput naming the limit. */
  read(itemId: string, maxBytes: number): TaskEither<GatewayError, FileBytes>;
  /**
   * A new file in the folder, or with `overwrite` a new version of the same-named file; without it a
   * same-named file gets a numbered name, as an upload does.
   */
  write(folderId: string, fileName: string, bytes: Uint8Array, overwrite: boolean): TaskEither<GatewayError, Item>;
}

export const FileContents = Symbol.for('FileContents') as ServiceIdentifier<FileContents>;
