// The client matrix's report: one line per client and step (PASS, FAIL, SKIP or INFO), a count of the
// failures for the exit code, and the time limit every step runs under.

export const STEP_TIMEOUT_MS = 30_000;

let failures = 0;

/** How many FAIL lines have been written so far. */
export const failureCount = (): number => failures;

export const line = (
  verdict: 'PASS' | 'FAIL' | 'SKIP' | 'INFO',
  client: string,
  step: string,
  detail: string,
  ms?: number,
  max = 220,
) => {
  if (verdict === 'FAIL') failures++;
  const time = ms === undefined ? '' : ` (${ms} ms)`;
  process.stdout.write(`${verdict}  ${client.padEnd(30)} ${step.padEnd(14)} ${oneLine(detail, max)}${time}\n`);
};

const oneLine = (s: string, max = 220) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => (clearTimeout(timer), ok(v)),
      (e: unknown) => (clearTimeout(timer), fail(e instanceof Error ? e : new Error(String(e)))),
    );
  });
