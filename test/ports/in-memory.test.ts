import { InMemoryContactBook } from '../../adapters/outbound/memory/in-memory-contact-book.js';
import { InMemorySkipTracer } from '../../adapters/outbound/memory/in-memory-skip-tracer.js';
import { SystemClock } from '../../adapters/outbound/system-clock.js';
import { contactBookContract } from './contact-book.contract.js';
import { skipTracerContract } from './skip-tracer.contract.js';

contactBookContract('in memory', async () => ({
  book: InMemoryContactBook.withDemoData({ clock: new SystemClock() }),
  close: async () => {},
}));

skipTracerContract('in memory', async () => ({
  tracer: new InMemorySkipTracer(new SystemClock()),
  close: async () => {},
}));
