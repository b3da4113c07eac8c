// One place to import fp-ts from: the package has no exports map, so plain `node` needs the
// `lib/*.js` subpaths spelled out, and every other module imports them from here.
export * as E from 'fp-ts/lib/Either.js';
export * as TE from 'fp-ts/lib/TaskEither.js';
export * as O from 'fp-ts/lib/Option.js';
export * as A from 'fp-ts/lib/Array.js';
export { pipe, flow } from 'fp-ts/lib/function.js';
export type { Either } from 'fp-ts/lib/Either.js';
export type { TaskEither } from 'fp-ts/lib/TaskEither.js';
