import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

/** Settings of the records group (RECORDS_* variables) the use cases need. */
export interface RecordsSettings {
  /** IANA time zone that relative date tokens (-30d, +0d) are resolved in. */
  readonly timeZone: string;
  /** The profile id of the user the gateway acts as (include_active_user). */
  readonly activeProfileId: () => TaskEither<GatewayError, number>;
}
export const RecordsSettings = Symbol.for('RecordsSettings') as ServiceIdentifier<RecordsSettings>;
