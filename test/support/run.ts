import type { GatewayError } from '../../domain/shared/errors.js';
import type { Either, TaskEither } from '../../domain/shared/fp.js';

/** Runs a TaskEither and returns its value, failing the test with the error's message otherwise. */
export const ok = async <A>(te: TaskEither<GatewayError, A>): Promise<A> => {
  const r = await te();
  if (r._tag === 'Left') throw new Error(`expected success, got ${r.left._tag}: ${r.left.message}`);
  return r.right;
};

/** Runs a TaskEither that must fail and returns its error. */
export const err = async <A>(te: TaskEither<GatewayError, A>): Promise<GatewayError> => {
  const r = await te();
  if (r._tag === 'Right') throw new Error(`expected a failure, got ${JSON.stringify(r.right).slice(0, 200)}`);
  return r.left;
};

export const uniqueTag = (): string => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** The value of an Either that must be a success. */
export const right = <A>(r: Either<GatewayError, A>): A => {
  if (r._tag === 'Left') throw new Error(`expected success, got ${r.left._tag}: ${r.left.message}`);
  return r.right;
};

/** The error of an Either that must be a failure. */
export const left = <A>(r: Either<GatewayError, A>): GatewayError => {
  if (r._tag === 'Right') throw new Error(`expected a failure, got ${JSON.stringify(r.right)}`);
  return r.left;
};
