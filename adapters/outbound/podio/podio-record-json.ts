// Podio's answers are read loosely (any JSON object) through these typed accessors.

/** A JSON object of Podio's, read through the typed accessors below. */
export type Json = Record<string, unknown>;

export const num = (u: unknown): number | undefined =>
  typeof u === 'number' ? u : typeof u === 'string' && /^-?\d+(\.\d+)?$/.test(u) ? Number(u) : undefined;
export const str = (u: unknown): string | undefined => (typeof u === 'string' ? u : undefined);
export const obj = (u: unknown): Json => (typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Json) : {});
export const arr = (u: unknown): Json[] =>
  Array.isArray(u) ? (u.filter((x) => typeof x === 'object' && x !== null) as Json[]) : [];

export const podioTime = (s: unknown): string => (str(s) ?? '').slice(0, 19);
