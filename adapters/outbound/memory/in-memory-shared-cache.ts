import { LRUCache } from 'lru-cache';
import type { SharedCache } from '../../../ports/shared-cache.js';

/** The shared cache of a single instance: at most `maxBytes` of values (about 50 MB by default), each with its TTL. */
export class InMemorySharedCache implements SharedCache {
  private readonly entries: LRUCache<string, string>;
  constructor(maxBytes = 50_000_000) {
    this.entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (v, k) => (v.length + k.length) * 2 + 64,
      ttl: 3_600_000,
    });
  }
  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key);
  }
  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.entries.set(key, value, { ttl: ttlSeconds * 1000 });
  }
}
