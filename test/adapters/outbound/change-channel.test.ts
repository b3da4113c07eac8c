import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionChangeChannel } from '../../../adapters/outbound/redis/change-channel.js';
import { resilientRedisOptions } from '../../../adapters/outbound/redis/redis-availability.js';
import type { Vendor } from '../../../ports/connection-store.js';
import { ownRedisServer, type OwnRedis } from '../../support/redis.js';

// The connection-change channel (issue 32, item 2) on a redis-server of the test's own: what another
// instance publishes arrives, this instance's own messages and malformed ones are ignored, a Redis that
// went away and came back is subscribed to again, publishing while it is away never throws, and close()
// ends the subscriber.

let server: OwnRedis | { skip: string };
const clients: Redis[] = [];
const client = (options: object = {}) => {
  if (!('url' in server)) throw new Error('no redis-server');
  const c = new Redis(server.url, { ...resilientRedisOptions(), ...options });
  c.on('error', () => undefined);
  clients.push(c);
  return c;
};
const channels: ConnectionChangeChannel[] = [];
const CHANNEL = 'test:tg:connection-changes';

const instance = () => {
  const errors: string[] = [];
  const seen: string[] = [];
  const channel = new ConnectionChangeChannel({
    publisher: client(),
    subscriber: () => client({ autoResubscribe: false }),
    channel: CHANNEL,
    onError: (what) => errors.push(what),
  });
  channel.listen((tenant, vendor) => seen.push(`${tenant}/${vendor}`));
  channels.push(channel);
  return { channel, seen, errors };
};

const until = async (done: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const subscribers = async () => {
  const probe = client();
  await until(() => probe.status === 'ready');
  const [, n] = (await probe.pubsub('NUMSUB', CHANNEL)) as [string, number];
  probe.disconnect();
  return Number(n);
};

beforeAll(async () => {
  server = await ownRedisServer();
});
afterAll(async () => {
  for (const c of channels) await c.close();
  for (const c of clients) c.disconnect();
  if ('stop' in server) await server.stop();
});

describe('the connection-change channel', () => {
  it('delivers changes to the other instances, survives a Redis restart, and closes', async (ctx) => {
    if ('skip' in server) return ctx.skip(server.skip);
    const a = instance();
    const b = instance();
    await until(async () => (await subscribers()) === 2);

    await a.channel.publish('acme', 'hubspot');
    await until(() => b.seen.length === 1);
    expect(b.seen).toEqual(['acme/hubspot']);
    expect(a.seen).toEqual([]);

    // Malformed messages and unknown vendors change nothing.
    const raw = client();
    await until(() => raw.status === 'ready');
    for (const m of ['not json', '{"tenant":"acme","vendor":"nope"}', '{"tenant":"../x","vendor":"podio"}'])
      await raw.publish(CHANNEL, m);
    await a.channel.publish('acme', 'podio' as Vendor);
    await until(() => b.seen.length === 2);
    expect(b.seen).toEqual(['acme/hubspot', 'acme/podio']);

    // Redis goes away: publishing settles without throwing; once it is back, both subscribe again.
    await server.kill();
    await expect(a.channel.publish('acme', 'sharefile')).resolves.toBeUndefined();
    expect(a.errors).toContain('publishing a connection change');
    await server.restart();
    await until(async () => (await subscribers()) === 2, 15_000);
    await until(async () => {
      await a.channel.publish('beta', 'batchdata');
      return b.seen.includes('beta/batchdata');
    });

    await b.channel.close();
    await until(async () => (await subscribers()) === 1);
  }, 40_000);
});
