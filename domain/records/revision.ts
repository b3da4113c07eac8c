// Revisions (every change to a record; creation is revision 0) and comments.
import type { ValueType } from './field.js';
import type { FieldValue, FileValue } from './values.js';

/** A person as revisions and comments show them. */
export interface PersonRef {
  readonly id: number;
  readonly mail: readonly string[];
  readonly user_id: number;
  readonly name: string;
  readonly org_id: number | null;
  readonly type: 'user';
}

export type RevisionType = 'creation' | 'update' | 'delete' | 'restore';

export interface Revision {
  readonly revision: number;
  readonly type: RevisionType;
  readonly created_by: PersonRef;
  readonly created_on: string;
  readonly record_id: number;
  /** The fields this revision changed (empty for delete and restore). */
  readonly changes: readonly { readonly field_id: number; readonly label: string }[];
}

/**
 * The revisions to compare to see the latest change of field values: the last update and the revision
 * before it. Creation has nothing before it, and delete and restore change no field, so a delta over them
 * is empty; undefined when the revisions hold no update. `revisions` are in order (a page of them may start
 * past 0: the one before its first is then its number minus one).
 */
export const lastChangeRange = (
  revisions: readonly Pick<Revision, 'revision' | 'type'>[],
): { readonly revision_from: number; readonly revision_to: number } | undefined => {
  for (let i = revisions.length - 1; i >= 0; i--) {
    const r = revisions[i]!;
    if (r.type === 'update' && r.revision > 0)
      return { revision_from: i > 0 ? revisions[i - 1]!.revision : r.revision - 1, revision_to: r.revision };
  }
  return undefined;
};

export interface FieldDelta {
  readonly field_id: number;
  readonly external_id: string;
  readonly label: string;
  readonly type: ValueType;
  /** The value before (null when the field was empty) and after. */
  readonly from: FieldValue | null;
  readonly to: FieldValue | null;
}

export interface Comment {
  readonly comment_id: number;
  readonly created_on: string;
  readonly files: readonly FileValue[];
  readonly ref: { readonly type: 'record'; readonly id: number };
  readonly value: string;
  readonly user: Omit<PersonRef, 'id'>;
  readonly created_by: Omit<PersonRef, 'id'>;
}

/** The flags that reach the vendor: silent suppresses notifications, hook=false webhooks, workflow=false workflows. */
export interface WriteFlags {
  readonly silent: boolean;
  readonly hook: boolean;
  readonly workflow: boolean;
}

export const DEFAULT_FLAGS: WriteFlags = { silent: false, hook: true, workflow: true };
