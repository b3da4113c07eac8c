import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { AnswerRelay, Forwarded } from '../../../ports/answer-relay.js';
import { RedisUnavailable, withinBudget } from './redis-availability.js';

/** How long registering, forwarding or subscribing may wait for Redis before the caller is told it is away. */
export const RELAY_BUDGET_MS = 500;

export interface RedisAnswerRelayOptions {
  /** The gateway's Redis client (commands). */
  readonly redis: Redis;
  /** Makes the subscriber, a connection of its own, on the first `hold` (closed by `close`). */
  readonly subscriber: () => Redis;
  /** REDIS_KEY_PREFIX. */
  readonly prefix?: string;
  /** Told about Redis problems; never thrown. */
  readonly onError: (what: string, error: unknown) => void;
}

// One atomic step on the answering instance: the awaited entry must exist and belong to the caller that
// posts the answer; the answer is published on the holding instance's own channel, and the entry goes
// only if that instance heard it (PUBLISH counts the subscribers that received the message), so an
// answer that found nobody listening may be sent again. -1: unknown (or another caller's).
const FORWARD = `
local v = redis.call('GET', KEYS[1])
if not v then return -1 end
local sep = string.find(v, ' ', 1, true)
if not sep or string.sub(v, 1, sep - 1) ~= ARGV[1] then return -1 end
local heard = redis.call('PUBLISH', ARGV[2] .. string.sub(v, sep + 1), ARGV[3])
if heard > 0 then redis.call('DEL', KEYS[1]) end
return heard
`;

const ownerKey = (owner: string): string => createHash('sha256').update(owner).digest('base64url').slice(0, 32);

/**
 * Awaited answers across instances in Redis: `hold` writes `<prefix>tg:awaited:<id>` = "<owner hash>
 * <instance>" with the wait as its expiry; an instance that receives the answer runs FORWARD, which
 * publishes it on `<prefix>tg:answers:<instance>`, the channel this process subscribes to on a connection
 * of its own (subscribed again each time it reconnects). While that subscription is down, `hold` rejects
 * (no other instance could reach this one) and answers forwarded here find nobody (`unreachable`).
 */
export class RedisAnswerRelay implements AnswerRelay {
  readonly #instance = randomUUID();
  readonly #keys: string;
  readonly #channels: string;
  #subscriber: Redis | undefined;
  #subscribed: Promise<void> | undefined;
  #listening = false;
  #outages = 0;
  #closed = false;
  #onAnswer: ((id: string, owner: string, answer: string) => void) | undefined;

  constructor(private readonly options: RedisAnswerRelayOptions) {
    this.#keys = `${options.prefix ?? ''}tg:awaited:`;
    this.#channels = `${options.prefix ?? ''}tg:answers:`;
  }

  outages(): number {
    return this.#outages;
  }

  receive(onAnswer: (id: string, owner: string, answer: string) => void): void {
    this.#onAnswer = onAnswer;
  }

  async hold(id: string, owner: string, ttlMs: number): Promise<void> {
    await this.#listen();
    const { redis } = this.options;
    await withinBudget(redis, RELAY_BUDGET_MS, 'registering an awaited answer', () =>
      redis.set(this.#keys + id, `${ownerKey(owner)} ${this.#instance}`, 'PX', Math.max(1, Math.ceil(ttlMs))),
    );
  }

  async forward(id: string, owner: string, answer: string): Promise<Forwarded> {
    const { redis } = this.options;
    const message = JSON.stringify({ id, owner, answer });
    const heard = await withinBudget(redis, RELAY_BUDGET_MS, 'forwarding an answer', () =>
      redis.eval(FORWARD, 1, this.#keys + id, ownerKey(owner), this.#channels, message),
    );
    return Number(heard) < 0 ? 'unknown' : Number(heard) === 0 ? 'unreachable' : 'delivered';
  }

  release(id: string): void {
    const { redis } = this.options;
    if (this.#closed || redis.status !== 'ready') return;
    redis.del(this.#keys + id).catch((error: unknown) => this.options.onError('forgetting an awaited answer', error));
  }

  /** Subscribes on first use; rejects while the subscription is not live (within the budget on first use). */
  async #listen(): Promise<void> {
    if (this.#closed) throw new RedisUnavailable('the answer relay is closed');
    if (this.#listening) return;
    this.#subscribed ??= this.#start();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.#subscribed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new RedisUnavailable(`Redis did not confirm the answers subscription within ${RELAY_BUDGET_MS} ms`),
              ),
            RELAY_BUDGET_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    if (!this.#listening) throw new RedisUnavailable('the answers subscription is down (Redis is reconnecting)');
  }

  /** Makes the subscriber; settles when it first subscribed (never rejects: later 'ready's subscribe again). */
  #start(): Promise<void> {
    const channel = this.#channels + this.#instance;
    const subscriber = this.options.subscriber();
    this.#subscriber = subscriber;
    const down = () => {
      if (this.#listening) this.#outages++;
      this.#listening = false;
    };
    subscriber.on('error', (error: Error) => this.options.onError('answers subscriber', error));
    subscriber.on('close', down);
    subscriber.on('end', down);
    subscriber.on('reconnecting', down);
    subscriber.on('message', (from: string, raw: string) => {
      if (from === channel) this.#deliver(raw);
    });
    return new Promise<void>((resolve) => {
      const subscribe = () => {
        subscriber.subscribe(channel).then(
          () => {
            this.#listening = !this.#closed;
            resolve();
          },
          (error: unknown) => {
            this.options.onError('subscribing to answers', error);
            if (!this.#closed) subscriber.disconnect(true); // the next 'ready' subscribes again
          },
        );
      };
      subscriber.on('ready', subscribe);
      if (subscriber.status === 'ready') subscribe();
    });
  }

  #deliver(raw: string): void {
    try {
      const m = JSON.parse(raw) as { id?: unknown; owner?: unknown; answer?: unknown };
      if (typeof m.id === 'string' && typeof m.owner === 'string' && typeof m.answer === 'string')
        this.#onAnswer?.(m.id, m.owner, m.answer);
    } catch (error) {
      this.options.onError('reading a forwarded answer', error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }
}
