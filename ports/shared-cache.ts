import type { ServiceIdentifier } from 'inversify';

/**
 * A small cache of strings shared by every instance (Redis when configured, else in process). Best effort:
 * a cache that cannot answer answers "not cached", and a write that fails is dropped.
 */
export interface SharedCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

export const SharedCache = Symbol.for('SharedCache') as ServiceIdentifier<SharedCache>;
