import type { Hono } from 'hono';
import type { JobEngine } from '../../../application/jobs/job-engine.js';
import { JOB_PAGE_DEFAULT, JOB_PAGE_MAX, jobView } from '../../../application/jobs/job-view.js';
import { toolError } from '../../../application/runtime/tool-error.js';
import type { Authenticator } from '../../../ports/authenticator.js';
import { failure, json, principalOr401, storeUnavailableAnswer } from './api-answers.js';

// Long jobs over REST (issue 40): a tool call sent with `Prefer: respond-async` is answered 202 with
// `Location: /v1/jobs/{id}` (tool-calls.ts); these routes read a job, list the caller's own, and cancel one.
// Only the principal that started a job sees it: another caller's job id answers 404 like an unknown one.

export interface JobRouteDeps {
  readonly authenticator: Authenticator;
  readonly jobs: JobEngine;
  readonly onStoreError?: (error: unknown) => void;
}

/** Jobs listed by GET /v1/jobs (newest first). */
export const JOBS_LISTED = 50;

const notFound = (id: string) =>
  failure(
    toolError(
      404,
      'NOT_FOUND',
      `No job ${id} for this caller: a job is seen only by the caller that started it, and kept for a while after it ends (expires_at).`,
      { resource: 'job', id },
    ),
  );

const intParam = (raw: string | undefined, fallback: number, max: number): number | undefined => {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  const n = Number(raw);
  return n <= max ? n : undefined;
};

export const mountJobRoutes = (app: Hono, deps: JobRouteDeps): void => {
  const guarded = async (run: () => Promise<Response>): Promise<Response> => {
    try {
      return await run();
    } catch (error) {
      deps.onStoreError?.(error);
      return storeUnavailableAnswer('job');
    }
  };

  app.get('/v1/jobs', async (c) => {
    const principal = await principalOr401(deps.authenticator, c.req.header('authorization'));
    if (principal instanceof Response) return principal;
    return guarded(async () => {
      const rows = await deps.jobs.list(principal, JOBS_LISTED);
      const jobs = await Promise.all(rows.map((r) => jobView(deps.jobs.store, r)));
      return json(200, { success: true, data: { jobs } });
    });
  });

  app.get('/v1/jobs/:id', async (c) => {
    const principal = await principalOr401(deps.authenticator, c.req.header('authorization'));
    if (principal instanceof Response) return principal;
    const offset = intParam(c.req.query('offset'), 0, 1_000_000_000);
    const limit = intParam(c.req.query('limit'), JOB_PAGE_DEFAULT, JOB_PAGE_MAX);
    const failedOnly = c.req.query('failed_only');
    if (
      offset === undefined ||
      limit === undefined ||
      limit === 0 ||
      (failedOnly && !/^(true|false)$/.test(failedOnly))
    )
      return failure(
        toolError(
          400,
          'INVALID_PARAMETER',
          `offset is a whole number from 0, limit one from 1 to ${JOB_PAGE_MAX}, failed_only true or false.`,
          { parameter: 'query', expected: `offset >= 0, 1 <= limit <= ${JOB_PAGE_MAX}, failed_only boolean` },
        ),
      );
    const id = c.req.param('id');
    return guarded(async () => {
      const row = await deps.jobs.find(id, principal);
      if (!row) return notFound(id);
      const view = await jobView(deps.jobs.store, row, { offset, limit, failedOnly: failedOnly === 'true' });
      const next =
        view.next_offset === undefined
          ? undefined
          : `/v1/jobs/${id}?offset=${view.next_offset}&limit=${limit}${failedOnly === 'true' ? '&failed_only=true' : ''}`;
      return json(200, { success: true, data: next ? { ...view, next } : view });
    });
  });

  app.delete('/v1/jobs/:id', async (c) => {
    const principal = await principalOr401(deps.authenticator, c.req.header('authorization'));
    if (principal instanceof Response) return principal;
    const id = c.req.param('id');
    return guarded(async () => {
      const row = await deps.jobs.cancel(id, principal);
      if (!row) return notFound(id);
      return json(200, { success: true, data: await jobView(deps.jobs.store, row) });
    });
  });
};
