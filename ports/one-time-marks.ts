import type { ServiceIdentifier } from 'inversify';

/**
 * Marks that can be set once: the first `consume` of a key answers true, every later one (until the TTL
 * ends) false. Atomic across every instance sharing the store (Redis when configured, else this process).
 * A store that cannot answer rejects: the caller fails closed (a used mark must never read as unused).
 */
export interface OneTimeMarks {
  consume(key: string, ttlSeconds: number): Promise<boolean>;
}

export const OneTimeMarks = Symbol.for('OneTimeMarks') as ServiceIdentifier<OneTimeMarks>;
