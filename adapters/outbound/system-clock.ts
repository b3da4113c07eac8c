import { injectable } from 'inversify';
import type { Clock } from '../../ports/clock.js';

@injectable()
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that stands still until told to move: for tests and reproducible demos. */
export class FixedClock implements Clock {
  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
