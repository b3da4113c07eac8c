// Long jobs (issue 40) in the OpenAPI document: the `Prefer: respond-async` parameter and 202 answer of the
// tools that can run as a job, and the /v1/jobs endpoints.

import { JOB_PAGE_DEFAULT, JOB_PAGE_MAX } from '../../../application/jobs/job-view.js';
import { errors } from './error-responses.js';

const outcome = {
  type: 'object',
  description: "One item's outcome, as the tool's result lists it (a batch: index, success, record_id, error, fix).",
  properties: { index: { type: 'integer' }, success: { type: 'boolean' } },
  required: ['index', 'success'],
};

const job = {
  type: 'object',
  properties: {
    job_id: { type: 'string', pattern: '^j[0-9a-f]{32}$' },
    tool: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'running', 'cancelling', 'completed', 'failed', 'cancelled'] },
    progress: {
      type: 'object',
      properties: {
        done: { type: 'integer' },
        total: { type: ['integer', 'null'] },
        failed: { type: 'integer' },
        text: { type: 'string', description: '"1,250 of 5,000 (3 failed)".' },
      },
    },
    failures: { type: 'array', items: outcome, description: 'The first failures so far (20 at most).' },
    resumed: { type: 'boolean', description: 'An instance running it stopped and another went on with it.' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time', description: 'When the job and its results are deleted.' },
    error: { type: 'object', description: 'How a failed job failed (code, message, details).' },
    result: { type: 'object', description: "The tool's result without its items (a batch: counts and batch_id)." },
    items: { type: 'array', items: outcome, description: 'A page of the per-item results (GET /v1/jobs/{id}).' },
    offset: { type: 'integer' },
    next_offset: { type: 'integer' },
    next: { type: 'string', description: 'The path of the next page, when there is one.' },
  },
  required: ['job_id', 'tool', 'status', 'progress'],
};

const ok = (data: object, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { type: 'object', properties: { success: { const: true }, data }, required: ['success', 'data'] },
    },
  },
});

export const JOBS_TAG = {
  name: 'jobs',
  description:
    'Long jobs: a batch of any size, a large upload, a folder copy or move, a long read. Start one with `Prefer: respond-async` on the tool call (202 and its Location), follow its progress, page its results, cancel it. A job survives the instance that started it; only the caller that started it sees it.',
};

/** The `Prefer` header of a tool that can run as a job. */
export const PREFER_PARAMETER = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description:
    '`respond-async`: run the call as a job. The answer is 202 with `Location: /v1/jobs/{id}` once every check has passed (permission, arguments, approval); the work then runs on any instance.',
  schema: { type: 'string', examples: ['respond-async'] },
};

/** The 202 of a call run as a job. */
export const JOB_ACCEPTED = {
  ...ok(job, 'Queued as a job (`Prefer: respond-async`): `Location` names it, `Preference-Applied: respond-async`.'),
  headers: { Location: { schema: { type: 'string' }, description: '/v1/jobs/{id}' } },
};

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^j[0-9a-f]{32}$' } };

export const jobPaths = (): Record<string, unknown> => ({
  '/v1/jobs': {
    get: {
      operationId: 'listJobs',
      summary: "The caller's own jobs, newest first (50 at most)",
      tags: ['jobs'],
      security: [{ bearer: [] }],
      responses: {
        '200': ok({ type: 'object', properties: { jobs: { type: 'array', items: job } } }, 'Jobs.'),
        ...errors(401, 503),
      },
    },
  },
  '/v1/jobs/{id}': {
    get: {
      operationId: 'getJob',
      summary: 'A job: status, progress "n of N", failures so far, and a page of its results',
      tags: ['jobs'],
      security: [{ bearer: [] }],
      parameters: [
        idParam,
        { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: JOB_PAGE_MAX, default: JOB_PAGE_DEFAULT },
        },
        { name: 'failed_only', in: 'query', required: false, schema: { type: 'boolean', default: false } },
      ],
      responses: { '200': ok(job, 'The job.'), ...errors(400, 401, 404, 503) },
    },
    delete: {
      operationId: 'cancelJob',
      summary: 'Cancel a job: it stops after the work in flight, and its results say exactly what was done',
      tags: ['jobs'],
      security: [{ bearer: [] }],
      parameters: [idParam],
      responses: { '200': ok(job, 'The job, `cancelling` until its work in flight ends.'), ...errors(401, 404, 503) },
    },
  },
});
