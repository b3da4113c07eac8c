import { describe, expect, it } from 'vitest';
import { bannerLines, type BannerFacts } from '../../composition/banner.js';
import { startServerProcess } from '../support/server-process.js';

// Issue 26: the start-up banner printed the demo token (every permission) whenever one was in force,
// also beside API keys and with vendor backends, where the output goes to logs others read. It is now
// printed only in demo mode: every group in memory with the demo data, and no API keys or JWTs.

const TOKEN = 'banner-demo-token-0123456789';
const MEMORY = { files: 'memory', crm: 'memory', skiptrace: 'memory', workspaces: 'memory', records: 'memory' };
const demo: BannerFacts = {
  base: 'http://127.0.0.1:8787',
  backends: MEMORY,
  tools: 60,
  demoToken: TOKEN,
  demoTokenConfigured: false,
  demoData: true,
  apiKeys: 0,
  jwt: false,
};

describe('the banner', () => {
  it('prints the demo token and a line to try in demo mode', () => {
    const text = bannerLines(demo).join('\n');
    expect(text).toContain(`Demo token (every permission): ${TOKEN}`);
    expect(text).toContain(`-H 'Authorization: Bearer ${TOKEN}'`);
  });

  it.each<[string, Partial<BannerFacts>]>([
    ['API keys are configured', { apiKeys: 2, demoTokenConfigured: true }],
    ['JWTs are accepted', { jwt: true }],
    ['a group runs against its vendor', { backends: { ...MEMORY, crm: 'hubspot' } }],
    ['the demo data is off', { demoData: false, demoTokenConfigured: true }],
  ])('never prints it when %s', (_why, change) => {
    const text = bannerLines({ ...demo, ...change }).join('\n');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('Tool Gateway listening on http://127.0.0.1:8787');
  });

  it('says that a configured demo token is in force without printing it, and what to set when nothing is', () => {
    expect(bannerLines({ ...demo, apiKeys: 1, demoTokenConfigured: true }).join('\n')).toContain(
      'GATEWAY_DEMO_TOKEN is in force (every permission); it is printed only in demo mode.',
    );
    expect(bannerLines({ ...demo, demoToken: undefined, demoData: false }).join('\n')).toContain(
      'No API keys are configured',
    );
  });
});

describe('the server entry', () => {
  it('does not print GATEWAY_DEMO_TOKEN beside API keys, and warns that it is in force', async () => {
    const server = await startServerProcess({
      GATEWAY_DEMO_TOKEN: TOKEN,
      GATEWAY_API_KEYS: JSON.stringify([{ name: 'ci', token: 'banner-ci-token-0123456789', permissions: ['*'] }]),
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(server.output()).toContain('Tool Gateway listening on');
      expect(server.output()).not.toContain(TOKEN);
      expect(server.output()).toContain('GATEWAY_DEMO_TOKEN is in force outside demo mode');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);

  it('prints it in demo mode', async () => {
    const server = await startServerProcess({ GATEWAY_DEMO_TOKEN: TOKEN });
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(server.output()).toContain(`Demo token (every permission): ${TOKEN}`);
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 60_000);
});
