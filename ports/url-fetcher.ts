import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { NewFile } from './record-store.js';

/** Downloads a file a caller named by URL (attachments), behind a guard: http(s) only, no private addresses, size and time limits. */
export interface UrlFetcher {
  fetch(url: string): TaskEither<GatewayError, NewFile>;
}

export const UrlFetcher = Symbol.for('UrlFetcher') as ServiceIdentifier<UrlFetcher>;
