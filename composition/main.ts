import { serve } from '@hono/node-server';
import { ConfigurationError, createGateway } from './gateway.js';

// The server entry: `npm start` (tsx) and `node dist/composition/main.js`.

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
  const server = serve({ fetch: gateway.http.fetch, port: config.port, hostname: config.host, autoCleanupIncoming: false }, (info) => {
    const base = config.publicBaseUrl ?? `http://${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
    const lines = [
      '',
      `Tool Gateway listening on ${base}`,
      `  ${Object.entries(gateway.backends).map(([g, b]) => `${g}: ${b}`).join('   ')}   tools: ${gateway.listTools().length}`,
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
  });

  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

start();
