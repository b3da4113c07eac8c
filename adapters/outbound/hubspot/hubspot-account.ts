import { E } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { HubSpotClient } from './hubspot-client.js';
import { AccountDetails } from './hubspot-codecs.js';

const RETRY_AFTER_FAILURE_MS = 300_000;

/**
 * The HubSpot account's details (`GET /account-info/v3/details`), read once: its id and web host for record
 * links (EU accounts are on app-eu1.hubspot.com), and the time zone its daily limit resets in, which the
 * client then uses for 429 answers. A failure leaves the defaults (app.hubspot.com, UTC), is not asked
 * again for five minutes, and never fails the call that wanted the details.
 */
export class HubSpotAccount {
  details: AccountDetails | undefined;
  #asked: Promise<void> | undefined;
  #failedAt = -Infinity;

  constructor(
    private readonly client: HubSpotClient,
    private readonly clock: Clock,
  ) {
    client.learnTimeZone = () => this.read();
  }

  read(): Promise<void> {
    if (this.details || this.clock.now().getTime() - this.#failedAt < RETRY_AFTER_FAILURE_MS) return Promise.resolve();
    this.#asked ??= (async () => {
      // exempt from the daily reserve: it is asked when the day's count runs low, to learn the day's zone
      const sent = await this.client.send({ method: 'GET', url: '/account-info/v3/details', quotaExempt: true });
      const decoded =
        E.isRight(sent) && sent.right.res.status === 200 ? AccountDetails.decode(sent.right.res.data) : undefined;
      if (decoded && E.isRight(decoded)) {
        this.details = decoded.right;
        if (decoded.right.timeZone) this.client.timeZone = decoded.right.timeZone;
      } else this.#failedAt = this.clock.now().getTime();
    })().finally(() => {
      this.#asked = undefined;
    });
    return this.#asked;
  }
}
