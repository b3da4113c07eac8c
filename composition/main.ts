import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { answeredAtTurnEnd } from '../adapters/inbound/http/turn-end-answers.js';
import { ConfigurationError, createGateway } from './gateway.js';

// The server entry: `npm start` (tsx) and `node dist/composition/main.js`.

/** What the server needs of @hono/node-server's bindings (HTTP/1 or HTTP/2): the response being answered. */
interface NodeBindings {
  readonly outgoing?: { readonly headersSent: boolean; setHeader(name: string, value: string): unknown };
}

const start = () => {
  let gateway;
  try {
    gateway = createGateway();
  } catch (error) {
    if (error instanceof ConfigurationError) {
      process.stderr.write(`${error.message}\nSee the configuration table in README.md.\n`);
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
  const server = serve(
    {
      fetch: (request: Request, env?: NodeBindings) => {
        inFlight++;
        return answer(request, env);
      },
      port: config.port,
      hostname: config.host,
      autoCleanupIncoming: false,
    },
    (info) => {
      const base =
        config.publicBaseUrl ?? `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
      const lines = [
        '',
        `Tool Gateway listening on ${base}`,
        `  ${Object.entries(gateway.backends)
          .map(([g, b]) => `${g}: ${b}`)
          .join('   ')}   tools: ${gateway.listTools().length}`,
      ];
      if (demoToken) {
        lines.push(
          `  Demo token (every permission): ${demoToken}`,
          '',
          'Try it:',
          `  curl -s -X POST ${base}/v1/tools/crm/searchContacts -H 'Authorization: Bearer ${demoToken}' -H 'Content-Type: application/json' -d '{"query":"maria"}'`,
          '',
          `List the tools: curl -s ${base}/v1/tools`,
        );
      }
      process.stdout.write(`${lines.join('\n')}\n\n`);
      logger.info({ port: info.port, host: info.address }, 'listening');
    },
  );

  // serve() creates a node:http server unless told otherwise.
  const http1 = server as Server;

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
  // period (each answer closes its connection; idle keep-alive connections are closed at once and as
  // others fall idle), then close Redis and exit 0.
  const stop = (signal: string) => {
    if (draining) return;
    draining = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs, inFlight }, 'shutting down');
    gateway.drain();
    const idle = setInterval(() => http1.closeIdleConnections(), 100);
    const force = setTimeout(() => {
      logger.warn('grace period over: closing the remaining connections');
      http1.closeAllConnections();
    }, config.shutdownGraceMs);
    http1.close(() => {
      clearInterval(idle);
      clearTimeout(force);
      void gateway.close().finally(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    http1.closeIdleConnections();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

start();
