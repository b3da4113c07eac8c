import { AsyncLocalStorage } from 'node:async_hooks';

/** One call the gateway made to a vendor while serving a request. */
export interface UpstreamCall {
  readonly vendor: string;
  readonly method: string;
  /** HTTP status, or 0 when no answer came (timeout, refused connection). */
  readonly status: number;
  readonly ms: number;
  /** Body bytes received from the vendor (the answer as it came over the wire, before JSON parsing; a
   * streamed download counts its Content-Length), and body bytes sent to it. */
  readonly bytes?: number;
  readonly bytesSent?: number;
}

const scope = new AsyncLocalStorage<UpstreamCall[]>();

/** Runs `work` collecting the upstream calls made on its behalf. */
export const collectUpstreamCalls = <A>(calls: UpstreamCall[], work: () => Promise<A>): Promise<A> =>
  scope.run(calls, work);

export const recordUpstreamCall = (call: UpstreamCall): void => {
  scope.getStore()?.push(call);
};
