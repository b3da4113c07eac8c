import { describe, expect, it } from 'vitest';
import { answerOf } from '../../../adapters/inbound/http/tool-calls.js';
import type { Presented } from '../../../application/runtime/envelope.js';

// answerOf writes a text result's envelope around the text's own JSON: the bytes must be JSON.stringify's.
describe('the JSON of an answer', () => {
  const cases: readonly Presented[] = [
    { status: 200, body: { success: true, data: '## Contact\n\n| a | "b" |\n\\ \u2028 é \u0001' } },
    { status: 200, body: { success: true, data: '' } },
    { status: 200, body: { success: true, data: 'aGVsbG8=', encoding: 'base64' } },
    { status: 200, body: { success: true, data: { id: 101, tags: ['x'], note: null } } },
    { status: 200, body: { success: true, data: 42 } },
    { status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'No "x".', details: { id: 'x' } } } },
  ];

  it.each(cases)('is JSON.stringify of the envelope (%#)', (p) => {
    const answer = answerOf('req-1', p);
    expect(answer.body).toBe(JSON.stringify(p.body));
    expect(answer.status).toBe(p.status);
    expect(answer.headers['x-request-id']).toBe('req-1');
  });
});
