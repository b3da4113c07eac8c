import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { TENANT_ID } from '../../../ports/authenticator.js';
import { isVendor, type Vendor } from '../../../ports/connection-store.js';
import { withinBudget } from './redis-availability.js';

/** How long a change's announcement may wait for Redis (the change itself has happened by then). */
const PUBLISH_BUDGET_MS = 500;

export interface ChangeChannelOptions {
  /** The gateway's Redis client (commands), used to publish. */
  readonly publisher: Redis;
  /**
   * Makes the subscriber: a connection of its own (a subscribed connection can send nothing else),
   * made when `listen` is called and closed by `close`.
   */
  readonly subscriber: () => Redis;
  /** The channel's name (under REDIS_KEY_PREFIX). */
  readonly channel: string;
  /** Told about Redis problems; never thrown. */
  readonly onError: (what: string, error: unknown) => void;
}

/**
 * Connection changes announced to every instance on one Redis channel: an instance that connects,
 * changes or removes a tenant's connection publishes `{tenant, vendor}`, and every other instance drops
 * what it cached for that connection at once. Best effort: a message lost while Redis is away is covered by
 * the resolver's periodic re-read. The subscriber subscribes again each time it (re)connects.
 */
export class ConnectionChangeChannel {
  /** This instance's own messages are skipped (it has dropped its cache already). */
  readonly #origin = randomUUID();
  #subscriber: Redis | undefined;
  #closed = false;

  constructor(private readonly options: ChangeChannelOptions) {}

  /** Announces a change; settles once Redis took it or within half a second, never rejects. */
  async publish(tenant: string, vendor: Vendor): Promise<void> {
    if (this.#closed) return;
    const { publisher, channel } = this.options;
    const message = JSON.stringify({ tenant, vendor, origin: this.#origin });
    try {
      await withinBudget(publisher, PUBLISH_BUDGET_MS, 'a connection change', () =>
        publisher.publish(channel, message),
      );
    } catch (error) {
      this.options.onError('publishing a connection change', error);
    }
  }

  /** Starts the subscriber: `onChange` is told about each change made on another instance. */
  listen(onChange: (tenant: string, vendor: Vendor) => void): void {
    if (this.#closed || this.#subscriber) return;
    const { channel, onError } = this.options;
    const subscriber = this.options.subscriber();
    this.#subscriber = subscriber;
    subscriber.on('error', (error: Error) => onError('connection-change subscriber', error));
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).catch((error: unknown) => {
        onError('subscribing to connection changes', error);
        // Connect again: the next 'ready' subscribes again.
        if (!this.#closed) subscriber.disconnect(true);
      });
    });
    subscriber.on('message', (from: string, raw: string) => {
      if (from !== channel) return;
      const change = this.#parse(raw);
      if (change) onChange(change.tenant, change.vendor);
    });
  }

  #parse(raw: string): { tenant: string; vendor: Vendor } | undefined {
    try {
      const m = JSON.parse(raw) as { tenant?: unknown; vendor?: unknown; origin?: unknown };
      if (m.origin === this.#origin) return undefined;
      if (typeof m.tenant !== 'string' || !TENANT_ID.test(m.tenant)) return undefined;
      if (typeof m.vendor !== 'string' || !isVendor(m.vendor)) return undefined;
      return { tenant: m.tenant, vendor: m.vendor };
    } catch {
      return undefined;
    }
  }

  /** Closes the subscriber (nothing of it keeps the process alive afterwards). */
  async close(): Promise<void> {
    this.#closed = true;
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }
}
