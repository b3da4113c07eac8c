import type { RecordApps } from '../../ports/record-apps.js';
import type { RecordComments } from '../../ports/record-comments.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * The records ports over the demo data (Acquisitions space 2001: Properties 3002, Leads 3001, Deals 3003;
 * acting user 5001 Maria Gonzalez, profile 9101). `podio` marks a backend that deletes permanently and whose
 * category options carry no "done" meaning: restore and completed/incomplete must fail honestly there.
 */
export interface RecordsHarness {
  readonly apps: RecordApps;
  readonly store: RecordStore;
  readonly comments: RecordComments;
  readonly podio: boolean;
  close(): Promise<void>;
}
