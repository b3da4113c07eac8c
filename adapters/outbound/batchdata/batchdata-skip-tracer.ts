import type { AxiosResponse } from 'axios';
import type { GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { PropertyIdentity, SkipTraceResult } from '../../../domain/skiptrace/skip-trace.js';
import type { SkipTracer } from '../../../ports/skip-tracer.js';
import { BatchDataClient, type BatchDataClientOptions } from './batchdata-client.js';
import { unexpectedShape, V1SkipTraceResponse } from './batchdata-codecs.js';
import { bodyStatusCode, missingApiToken } from './batchdata-errors.js';
import { skipTraceRequest, toResult } from './batchdata-mapping.js';

export type BatchDataSkipTracerOptions = BatchDataClientOptions;

/** Skip tracing through BatchData's synchronous V1 property skip-trace, one property per call. */
export class BatchDataSkipTracer implements SkipTracer {
  readonly #client: BatchDataClient;

  constructor(options: BatchDataSkipTracerOptions) {
    this.#client = new BatchDataClient(options);
  }

  trace(identity: PropertyIdentity): TaskEither<GatewayError, SkipTraceResult> {
    if (!this.#client.hasToken) return TE.left(missingApiToken());
    return pipe(
      TE.fromEither(skipTraceRequest(identity)),
      TE.chain((request) => {
        const startedAt = new Date();
        return pipe(
          this.#client.skipTrace({ requests: [request] }),
          TE.chainEitherK((res) => this.#interpret(res, identity, startedAt, new Date())),
        );
      }),
    );
  }

  #interpret(
    res: AxiosResponse<unknown>,
    identity: PropertyIdentity,
    startedAt: Date,
    endedAt: Date,
  ): Either<GatewayError, SkipTraceResult> {
    if (res.status < 200 || res.status >= 300) return E.left(this.#client.failure(res.status, res));
    const decoded = V1SkipTraceResponse.decode(res.data);
    if (E.isLeft(decoded)) {
      const code = bodyStatusCode(res.data);
      return E.left(
        code !== undefined && code >= 400 ? this.#client.failure(code, res) : unexpectedShape(res.status, decoded.left),
      );
    }
    const body = decoded.right;
    if (body.status.code >= 400) return E.left(this.#client.failure(body.status.code, res));
    return E.right(toResult(body, identity, startedAt, endedAt));
  }
}
