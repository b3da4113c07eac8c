// Input values for createRecord and updateRecord once validated: one kind per family of field types.
import type { FieldDefinition } from '../field.js';

export interface ChecklistInput {
  readonly id?: number;
  readonly title: string;
  readonly completed: boolean;
  readonly description: string | null;
  readonly due: string | null;
  readonly assignee_user_id: number | null;
}

export type AttachmentInput = { readonly file_id: number } | { readonly url: string };

export type FieldInput =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'category'; readonly option_ids: readonly number[] }
  | { readonly kind: 'date'; readonly start: string; readonly end: string | null }
  | { readonly kind: 'money'; readonly value: string; readonly currency: string }
  | { readonly kind: 'relation'; readonly record_ids: readonly number[] }
  | { readonly kind: 'user'; readonly profile_ids: readonly number[] }
  | { readonly kind: 'attachment'; readonly files: readonly AttachmentInput[] }
  | { readonly kind: 'email'; readonly items: readonly { type: string; value: string }[] }
  | { readonly kind: 'phone'; readonly items: readonly { type: string; value: string }[] }
  | { readonly kind: 'link'; readonly items: readonly { url: string; title: string }[] }
  | { readonly kind: 'checklist'; readonly items: readonly ChecklistInput[] }
  | { readonly kind: 'location'; readonly value: string }
  | { readonly kind: 'clear' };

/** One handler per input kind: a store's conversion of validated input, type-checked to cover every kind. */
export type InputHandlers<R> = { readonly [K in FieldInput['kind']]: (input: Extract<FieldInput, { kind: K }>) => R };

export interface ValidatedField {
  readonly field: FieldDefinition;
  readonly input: FieldInput;
}

export type ValidatedFields = readonly ValidatedField[];

// Helpers the validators share.
export const isObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === 'object' && u !== null && !Array.isArray(u);
export const positiveInt = (u: unknown): number | undefined => {
  const n = typeof u === 'string' && /^\d+$/.test(u.trim()) ? Number(u) : u;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
export const asList = (u: unknown): readonly unknown[] => (Array.isArray(u) ? u : [u]);
