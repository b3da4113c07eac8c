import { conflict, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';

/**
 * How much memory mode keeps per demo account. Memory mode is for demos and tests; these caps keep a caller
 * who creates in a loop from filling the process's memory. Each store answers a clear 409 once full.
 */
export interface DemoLimits {
  readonly contacts: number;
  readonly companies: number;
  readonly shares: number;
  readonly spaces: number;
  readonly records: number;
  readonly comments: number;
  readonly recordFiles: number;
  readonly items: number;
  /** Bytes of file content held by the files group (every version of every file). */
  readonly itemBytes: number;
}

export const DEFAULT_DEMO_LIMITS: DemoLimits = {
  contacts: 10_000,
  companies: 10_000,
  shares: 10_000,
  spaces: 1_000,
  records: 250_000,
  comments: 50_000,
  recordFiles: 20_000,
  items: 20_000,
  itemBytes: 512 * 1024 * 1024,
};

/** The refusal a full demo store answers with. */
export const demoStoreFull = (what: string, limit: number, remedy = `Delete some ${what} first.`): GatewayError =>
  conflict(
    `The in-memory demo account holds at most ${limit.toLocaleString('en-US')} ${what}, and it is full. ${remedy} Memory mode is for demos and tests; run the group against its vendor for real data.`,
    { resource: what, limit },
  );

/** Right when `count` more fit under `limit`, otherwise the refusal. */
export const roomFor = (
  what: string,
  held: number,
  limit: number,
  count = 1,
  remedy?: string,
): Either<GatewayError, void> =>
  held + count <= limit ? E.right(undefined) : E.left(demoStoreFull(what, limit, remedy));
