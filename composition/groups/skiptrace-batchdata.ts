import type { Container } from 'inversify';
import { BatchDataSkipTracer } from '../../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { SkipTracer } from '../../ports/skip-tracer.js';
import { bindOnce, type ConnectionBinding, type SharedServices } from '../group-module.js';

// The skiptrace group's BatchData adapter on one connection: imported by skiptrace.ts on the first
// BatchData connection, so that the memory mode never loads it (issue 39).

export const bindBatchDataConnection = (
  container: Container,
  config: { readonly baseUrl: string },
  { upstreamTimeoutMs, resilience }: SharedServices,
  { connection }: ConnectionBinding,
): void =>
  bindOnce(
    container,
    SkipTracer,
    () =>
      new BatchDataSkipTracer({
        baseUrl: config.baseUrl,
        apiToken: connection.secret.apiKey ?? '',
        timeoutMs: upstreamTimeoutMs,
        resilience,
      }),
  );
