import pino from 'pino';
import { TEST_DATA_DIR } from './data-dir.js';
import { FixedClock } from '../../adapters/outbound/system-clock.js';
import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { InMemorySkipTracer } from '../../adapters/outbound/memory/in-memory-skip-tracer.js';
import { createGateway, principal, type Gateway } from '../../composition/gateway.js';
import type { ContainerOverrides } from '../../composition/container.js';

export const DEMO_TOKEN = 'test-demo-token-0123456789';
export const READER_TOKEN = 'test-reader-token-0123456789';
export const CRM_ALL_TOKEN = 'test-crm-all-token-0123456789';
export const NOW = new Date('2026-11-21T10:00:00.000Z');

export const everyone = principal('test', ['*']);

/** A gateway in memory mode with demo data, a fixed clock and known tokens. */
export const testGateway = (
  overrides: ContainerOverrides = {},
  env: Record<string, string> = {},
): Gateway & { clock: FixedClock } => {
  const clock = overrides.clock instanceof FixedClock ? overrides.clock : new FixedClock(NOW);
  const gateway = createGateway({
    env: {
      GATEWAY_DATA_DIR: TEST_DATA_DIR,
      GATEWAY_DEMO_TOKEN: DEMO_TOKEN,
      GATEWAY_API_KEYS: JSON.stringify([
        { name: 'reader', token: READER_TOKEN, permissions: ['crm:read', 'skiptrace:read'] },
        { name: 'crm-all', token: CRM_ALL_TOKEN, permissions: ['crm:*'] },
      ]),
      ...env,
    },
    logger: pino({ level: 'silent' }),
    overrides: {
      clock,
      contactBook: InMemoryContactBook.withDemoData({ clock }),
      skipTracer: new InMemorySkipTracer(clock),
      ...overrides,
    },
  });
  return Object.assign(gateway, { clock });
};

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  raw: string;
}

/** One HTTP request against the gateway's Hono app (no socket). */
export const request = async (
  gateway: Gateway,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> => {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  const token = options.token === undefined ? DEMO_TOKEN : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await gateway.http.request(path, { method, headers, body });
  const raw = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, raw };
};

export const post = (gateway: Gateway, path: string, body?: unknown, token?: string | null) =>
  request(gateway, 'POST', path, { body, token });
