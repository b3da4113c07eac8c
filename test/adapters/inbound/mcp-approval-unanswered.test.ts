import { describe, expect, it } from 'vitest';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { unansweredBy } from '../../../adapters/inbound/mcp/mcp-approval.js';
import { RelayUnavailable } from '../../../adapters/inbound/mcp/awaited-answers.js';
import { TooManyApprovals } from '../../../adapters/inbound/mcp/legacy-relay.js';

// Why a 2025-era wait for a person's answer ended without one (issue 39): told by the type the wait threw,
// never by the words of its message.

describe('unansweredBy', () => {
  it('tells the relay away, a bound, and the SDK timeout apart by type', () => {
    expect(unansweredBy(new RelayUnavailable(new Error('redis down')), 60_000, false)).toEqual({
      kind: 'relay-unavailable',
      retryAfterSeconds: 5,
    });
    const bound = new TooManyApprovals({ scope: 'caller', limit: 16, retryAfterSeconds: 9 });
    expect(unansweredBy(bound, 60_000, false)).toEqual({
      kind: 'too-many-waiting',
      scope: 'caller',
      limit: 16,
      retryAfterSeconds: 9,
    });
    const timeout = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 60_000 });
    expect(unansweredBy(timeout, 60_000, true)).toEqual({ kind: 'timeout', waitMs: 60_000, answersLost: true });
  });

  it('takes no error for another by its words: a client error that says "timed out" is the client failing', () => {
    const words = new Error('Too many approvals are waiting: caller 16, retry in 9 s. Request timed out');
    expect(unansweredBy(words, 60_000, false)).toEqual({ kind: 'client-failed', detail: words.message });
    const closed = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    expect(unansweredBy(closed, 60_000, false).kind).toBe('client-failed');
  });
});
