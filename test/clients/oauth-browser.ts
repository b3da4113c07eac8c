import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signInAndConsent } from './person.js';

// A person at a browser, for clients that open one to sign in (mcp-remote with no header): given the
// authorization URL, it follows the gateway's authorization server's pages as a person would (the sign-in
// form with the key in MATRIX_SIGN_IN_KEY, then consent to every permission offered), and lets the last
// redirect reach the client's own callback. mcp-remote starts it through $BROWSER (test/clients/clients.ts).
//
//   MATRIX_SIGN_IN_KEY=<api key> node --import tsx test/clients/oauth-browser.ts <authorization url>

const main = async (authorizationUrl: string, key: string): Promise<void> => {
  const next = await signInAndConsent(authorizationUrl, key);
  // the client's own callback (a loopback server of its own) takes the code; a browser tries every address
  // of localhost, Node's fetch the first one
  if (next.hostname === 'localhost') next.hostname = '127.0.0.1';
  // The client may open the browser before its callback server listens (mcp-remote does): as a person
  // would reload, try again for a while.
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(next.href);
      return;
    } catch (error) {
      if (attempt >= 40) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
};

const [url] = process.argv.slice(2);
const key = process.env['MATRIX_SIGN_IN_KEY'];
if (!url || !key) {
  process.stderr.write('usage: MATRIX_SIGN_IN_KEY=<key> oauth-browser <authorization url>\n');
  process.exit(2);
}
// An opener may be tried twice for one sign-in (the `open` package, then a fallback): the first one signs in.
const state = new URL(url).searchParams.get('state') ?? 'none';
try {
  writeFileSync(join(tmpdir(), `oauth-browser-${state.replace(/[^\w-]/g, '')}`), '', { flag: 'wx' });
} catch {
  process.exit(0);
}
main(url, key).then(
  () => process.exit(0),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    process.stderr.write(`oauth-browser: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  },
);
