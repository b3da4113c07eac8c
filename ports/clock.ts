import type { ServiceIdentifier } from 'inversify';

export interface Clock {
  now(): Date;
}

export const Clock = Symbol.for('Clock') as ServiceIdentifier<Clock>;
