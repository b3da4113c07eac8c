import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  directCallLine,
  loggedCallLine,
  type CallLineFields,
  type CallLineLevel,
} from '../../../adapters/outbound/observability/call-line.js';
import { TurnBatchedLines, type LineSink } from '../../../adapters/outbound/observability/turn-batched-lines.js';

/** A sink that keeps each write as it came. */
const recordingSink = () => {
  const writes: string[] = [];
  let syncFlushes = 0;
  const sink: LineSink = {
    write: (chunk: string) => writes.push(chunk),
    flushSync: () => void syncFlushes++,
  };
  return { sink, writes, syncFlushes: () => syncFlushes };
};

const turnEnd = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the call line', () => {
  const cases: [CallLineLevel, CallLineFields][] = [
    [
      'info',
      {
        requestId: 'a1b2',
        tenant: 'default',
        principal: 'demo',
        principalId: 'key:demo',
        tool: 'crm_getContact',
        status: 200,
        durationMs: 0.4,
        upstreamCalls: 0,
      },
    ],
    [
      'info',
      {
        requestId: 'req-2',
        tenant: 'acme',
        principal: 'Zoë "ops" \\ bot\n\u2028',
        principalId: 'jwt:https://issuer.example/:sub-1',
        tool: 'records_filterRecords',
        status: 404,
        code: 'NOT_FOUND',
        durationMs: 12.3,
        upstreamCalls: 2,
        upstream: ['podio GET 200 8ms', 'podio POST 404 3ms'],
      },
    ],
    [
      'info',
      {
        // Each member quoted directly only when nothing in it needs escaping: these all need it, or are
        // at the edge of what does not (space, "!", "#", "[", "]", "~").
        requestId: 'tab\there',
        tenant: 'del\u007f',
        principal: 'Zoë',
        principalId: ' !#[]~',
        tool: 'ctl\u0001',
        status: 400,
        code: 'é',
        durationMs: 1,
        upstreamCalls: 0,
      },
    ],
    [
      'error',
      {
        requestId: 'r',
        tenant: 't',
        principal: 'p',
        principalId: 'key:p',
        tool: 'files_readFile',
        status: 504,
        code: 'TIMEOUT',
        durationMs: 30000,
        upstreamCalls: 0,
      },
    ],
  ];

  it.each(cases)('is written byte for byte as pino writes it (%s)', (level, fields) => {
    const viaPino = recordingSink();
    const direct = recordingSink();
    // A fixed clock, so that both lines carry the same time.
    const options = { level: 'info', timestamp: () => ',"time":1764000000000' };
    loggedCallLine(pino(options, viaPino.sink))(level, fields);
    const logger = pino(options, direct.sink);
    directCallLine(logger, direct.sink)(level, fields);
    expect(viaPino.writes).toHaveLength(1);
    expect(direct.writes).toEqual(viaPino.writes);
    expect(JSON.parse(direct.writes[0]!)).toMatchObject({ ...fields, msg: 'tool call', pid: process.pid });
  });

  it('escapes a lone surrogate, which pino writes raw (and UTF-8 then turns into U+FFFD)', () => {
    const direct = recordingSink();
    const logger = pino({ level: 'info' }, direct.sink);
    const principal = 'lone \ud800 surrogate';
    directCallLine(logger, direct.sink)('info', { ...cases[0]![1], principal });
    expect(direct.writes[0]).toContain('"principal":"lone \\ud800 surrogate"');
    expect(JSON.parse(direct.writes[0]!)).toMatchObject({ principal });
  });

  it("carries a child logger's bindings like pino does", () => {
    const viaPino = recordingSink();
    const direct = recordingSink();
    const options = { timestamp: () => ',"time":1' };
    const [fields] = cases[0]!.slice(1) as [CallLineFields];
    loggedCallLine(pino(options, viaPino.sink).child({ instance: 'a"b' }))('info', fields);
    directCallLine(pino(options, direct.sink).child({ instance: 'a"b' }), direct.sink)('info', fields);
    expect(direct.writes).toEqual(viaPino.writes);
    expect(direct.writes[0]).toContain('"instance":"a\\"b"');
  });

  it('follows bindings set after it was made', () => {
    const viaPino = recordingSink();
    const direct = recordingSink();
    const options = { timestamp: () => ',"time":1' };
    const [fields] = cases[0]!.slice(1) as [CallLineFields];
    const a = pino(options, viaPino.sink);
    const b = pino(options, direct.sink);
    const write = directCallLine(b, direct.sink);
    a.setBindings({ region: 'eu' });
    b.setBindings({ region: 'eu' });
    loggedCallLine(a)('info', fields);
    write('info', fields);
    expect(direct.writes).toEqual(viaPino.writes);
    expect(direct.writes[0]).toContain('"region":"eu"');
  });
});

describe('turn-batched log lines', () => {
  it('hands the lines of one turn to the sink as one write, in order, when the turn ends', async () => {
    const { sink, writes } = recordingSink();
    const lines = new TurnBatchedLines(sink);
    lines.write('one\n');
    lines.write('two\n');
    lines.write('three\n');
    expect(writes).toEqual([]);
    await turnEnd();
    expect(writes).toEqual(['one\ntwo\nthree\n']);
    lines.write('four\n');
    await turnEnd();
    expect(writes).toEqual(['one\ntwo\nthree\n', 'four\n']);
  });

  it('writes at once when a turn has logged more than its limit', () => {
    const { sink, writes } = recordingSink();
    const lines = new TurnBatchedLines(sink, 10);
    lines.write('12345\n');
    expect(writes).toEqual([]);
    lines.write('67890\n');
    expect(writes).toEqual(['12345\n67890\n']);
  });

  it('flushes pending lines synchronously, and through the sink, on flushSync and pino.flush', async () => {
    const recorded = recordingSink();
    const lines = new TurnBatchedLines(recorded.sink);
    const logger = pino({ timestamp: false, base: null }, lines);
    logger.info('first');
    lines.flushSync();
    expect(recorded.writes).toEqual(['{"level":30,"msg":"first"}\n']);
    expect(recorded.syncFlushes()).toBe(1);
    logger.warn('second');
    await new Promise<void>((resolve, reject) => logger.flush((e) => (e ? reject(e) : resolve())));
    expect(recorded.writes[1]).toBe('{"level":40,"msg":"second"}\n');
    await turnEnd();
    expect(recorded.writes).toHaveLength(2);
  });
});
