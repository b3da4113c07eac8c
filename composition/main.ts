import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Logger } from 'pino';
import { answeredAtTurnEnd } from '../adapters/inbound/http/turn-end-answers.js';
import { bannerLines, isDemoMode } from './banner.js';
import { announceDatabase } from './database-at-start.js';
import { ConfigurationError, createGateway } from './gateway.js';

// The server entry: `npm start` (tsx) and `node dist/composition/main.js`.

/** While draining, how long a keep-alive connection that sends nothing is kept before it is closed. */
const DRAIN_IDLE_MS = 1000;

/** What the server needs of @hono/node-server's bindings (HTTP/1 or HTTP/2): the response being answered. */
interface NodeBindings {
  readonly outgoing?: { readonly headersSent: boolean; setHeader(name: string, value: string): unknown };
}

const JSON_TYPE = 'application/json; charset=utf-8';

const envelope = (code: string, message: string): string =>
  JSON.stringify({ success: false, error: { code, message, details: {} } });

/**
 * A request that failed before the gateway's app saw it (a request target or Host header that makes no
 * URL), or a fetch that threw: the error envelope with a request id, as every other answer.
 */
const failedRequest =
  (logger: Logger) =>
  (error: unknown): Response => {
    const requestId = randomUUID();
    const [status, body] =
      error instanceof RequestError
        ? [400, envelope('INVALID_PARAMETER', `The request cannot be read (${error.message}).`)]
        : [
            500,
            envelope(
              'INTERNAL_ERROR',
              `The gateway failed unexpectedly. The error was logged with request id ${requestId}.`,
            ),
          ];
    if (status === 500) logger.error({ err: error, requestId }, 'request failed unexpectedly');
    return new Response(body, { status, headers: { 'content-type': JSON_TYPE, 'x-request-id': requestId } });
  };

/** Node's own refusals, by error code: status, reason phrase, the envelope's code and message. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string, string, string]>> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'REQUEST_TIMEOUT', 'The request did not arrive in time.'],
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'PAYLOAD_TOO_LARGE',
    'The request headers are larger than the server accepts.',
  ],
};

/**
 * A request Node refused itself (it cannot be parsed, or its headers came too slowly or are too large):
 * the error envelope with a request id, then the connection closes. Nothing is written over an answer
 * already begun on the connection.
 */
const clientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  const begun = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || begun) {
    socket.destroy();
    return;
  }
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'INVALID_PARAMETER',
    'The request is not valid HTTP/1.1.',
  ];
  const body = envelope(code, message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
};

const start = () => {
  let gateway;
  try {
    gateway = createGateway();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\nSee docs/configuration.md for every setting.\n`);
      process.exit(2);
    }
    throw error;
  }
  const { config, logger, demoToken } = gateway;
  // Once draining, every answer says "Connection: close", so that no client sends another request on a
  // connection the server is about to close. Checked as each answer is handed over, so that calls already
  // running when the shutdown began are marked too, without a listener on every request to track them.
  // (Hono's fetch answers every request, its error handler turning a throw into a 500, so each call that
  // starts is released.)
  let draining = false;
  let inFlight = 0;
  const answer = answeredAtTurnEnd(gateway.http.fetch, (_response, _request, env?: NodeBindings) => {
    inFlight--;
    if (draining && env?.outgoing && !env.outgoing.headersSent) env.outgoing.setHeader('connection', 'close');
  });
  // What @hono/node-server's serve() does, with an error handler of our own (failedRequest). Request
  // headers have the body's deadline (GATEWAY_BODY_TIMEOUT_MS; the body's own is kept by body-reader.ts),
  // checked every second rather than Node's default 30 s.
  const listener = getRequestListener(
    (request: Request, env?: NodeBindings) => {
      inFlight++;
      return answer(request, env);
    },
    { hostname: config.host, autoCleanupIncoming: false, errorHandler: failedRequest(logger) },
  );
  const http1 = createServer(
    {
      headersTimeout: config.bodyTimeoutMs,
      requestTimeout: Math.max(300_000, config.bodyTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
    // As serve() hands it over: the listener answers its own failures (failedRequest, or a 500).
    listener as RequestListener,
  );
  http1.on('clientError', clientError);
  // A port that is taken (or not ours to use) is a one-line message naming the setting, not a stack trace.
  http1.once('error', (error: NodeJS.ErrnoException) => {
    const where = `${config.host}:${config.port}`;
    const line =
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} is already in use on ${config.host}: stop what is listening there, or set PORT to a free port (PORT=${config.port + 1} npm start).`
        : error.code === 'EACCES'
          ? `Not allowed to listen on ${where}: set PORT to a port above 1023 (PORT=8787 npm start).`
          : error.code === 'EADDRNOTAVAIL'
            ? `HOST ${config.host} is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 for every interface).`
            : `Cannot listen on ${where}: ${error.message}`;
    process.stderr.write(`${line}\n`);
    process.exit(1);
  });
  http1.listen(config.port, config.host, () => {
    const info = http1.address() as AddressInfo;
    const base =
      config.publicBaseUrl ?? `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
    const facts = {
      base,
      backends: gateway.backends,
      tools: gateway.listTools().length,
      demoToken,
      demoTokenConfigured: config.demoToken !== undefined,
      demoData: config.demoData,
      apiKeys: config.apiKeys.length,
      jwt: config.jwt !== undefined,
    };
    process.stdout.write(`${bannerLines(facts).join('\n')}\n\n`);
    logger.info({ port: info.port, host: info.address }, 'listening');
    void gateway.jobs.resume(); // the job engine's first work, after the server answers (never rejects)
    if (config.storage.databaseUrl) void announceDatabase(config.storage.databaseUrl, config.storage.dataDir, logger);
    // No document reader starts here: the first document read starts one (its start is not counted against
    // the document's time limit), so an idle gateway does not hold one and its libraries (bench/startup.ts).
    if (facts.demoTokenConfigured && !isDemoMode(facts))
      logger.warn(
        'GATEWAY_DEMO_TOKEN is in force outside demo mode: it has every permission, for every caller who has it',
      );
  });

  // A promise nobody awaited that failed is a bug to log, not a reason to drop every call in flight.
  process.on('unhandledRejection', (reason) => {
    logger.error(
      { err: reason instanceof Error ? reason : { message: String(reason) } },
      'unhandled promise rejection',
    );
  });
  // An exception nothing caught leaves the process in an unknown state: log it and exit (the supervisor
  // restarts the instance; the other instances keep serving).
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception: exiting');
    process.exit(1);
  });

  // Graceful shutdown: stop accepting, report not-ready, let in-flight requests finish within the grace
  // period (each answer closes its connection), close the keep-alive connections left idle, then close
  // Redis and exit 0.
  //
  // Not http1.close(): since Node 19 it also destroys every idle keep-alive connection at once, and under
  // load a connection is idle for the moment between an answer and the client's next request, which then
  // meets a closed socket (50 to 70 resets in a 40-connection load test). Instead the listener alone stops
  // (new connections are refused) and every answer from now on says "Connection: close", so a connection
  // that serves a request closes after it, announced. A connection still idle DRAIN_IDLE_MS after the
  // signal has sent nothing since: it is closed then (its client is not using it, as when Node's keep-alive
  // timeout closes one), and the others as they fall idle.
  const stop = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs, inFlight }, 'shutting down');
    gateway.drain();
    let idle: NodeJS.Timeout | undefined;
    const sweep = setTimeout(
      () => {
        http1.closeIdleConnections();
        idle = setInterval(() => http1.closeIdleConnections(), DRAIN_IDLE_MS);
      },
      Math.min(DRAIN_IDLE_MS, config.shutdownGraceMs),
    );
    const force = setTimeout(() => {
      logger.warn('grace period over: closing the remaining connections');
      http1.closeAllConnections();
    }, config.shutdownGraceMs);
    NetServer.prototype.close.call(http1, () => {
      clearTimeout(sweep);
      clearInterval(idle);
      clearTimeout(force);
      void gateway.close().finally(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

start();
