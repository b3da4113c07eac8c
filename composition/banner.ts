// What the server prints as it starts: where it listens, each group's backend and, in demo mode only,
// the demo token with a line to try.

export interface BannerFacts {
  /** The address to print, such as http://127.0.0.1:8787. */
  readonly base: string;
  /** The backend of each group ("crm: memory"). */
  readonly backends: Readonly<Record<string, string>>;
  readonly tools: number;
  /** The token with every permission, when one is in force. */
  readonly demoToken?: string;
  /** The demo token was set (GATEWAY_DEMO_TOKEN) rather than made at start. */
  readonly demoTokenConfigured: boolean;
  /** GATEWAY_DEMO_DATA. */
  readonly demoData: boolean;
  /** How many API keys are configured (GATEWAY_API_KEYS). */
  readonly apiKeys: number;
  /** JWT access tokens are accepted (JWT_SECRET or JWT_JWKS_URL). */
  readonly jwt: boolean;
}

/**
 * Demo mode: every group in memory with the demo data, and no API keys or JWTs configured. Only then is
 * the demo token printed: elsewhere the output goes to logs that others read, and a token with every
 * permission does not belong there.
 */
export const isDemoMode = (f: BannerFacts): boolean =>
  f.demoData && Object.values(f.backends).every((b) => b === 'memory') && f.apiKeys === 0 && !f.jwt;

export const bannerLines = (f: BannerFacts): string[] => {
  const lines = [
    '',
    `Tool Gateway listening on ${f.base}`,
    `  ${Object.entries(f.backends)
      .map(([g, b]) => `${g}: ${b}`)
      .join('   ')}   tools: ${f.tools}`,
    `  MCP: ${f.base}/mcp   Reference and try-it page: ${f.base}/docs`,
    '  Connect Claude, Cursor, VS Code or the Inspector: README.md, "Connect a client".',
  ];
  if (f.demoToken !== undefined && isDemoMode(f)) {
    lines.push(
      `  Demo token (every permission): ${f.demoToken}`,
      '',
      'Try it:',
      `  curl -s -X POST ${f.base}/v1/tools/crm/searchContacts -H 'Authorization: Bearer ${f.demoToken}' -H 'Content-Type: application/json' -d '{"query":"maria"}'`,
      '',
      `List the tools: curl -s ${f.base}/v1/tools`,
    );
  } else if (f.demoToken !== undefined && f.demoTokenConfigured) {
    lines.push('  GATEWAY_DEMO_TOKEN is in force (every permission); it is printed only in demo mode.');
  } else if (f.apiKeys === 0 && !f.jwt) {
    lines.push('  No API keys are configured: set GATEWAY_API_KEYS (or JWT_SECRET, JWT_JWKS_URL) to call the tools.');
  }
  return lines;
};
