import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A person at a browser, for clients that open one to sign in (mcp-remote with no header): given the
// authorization URL, it follows the gateway's authorization server's pages as a person would (the sign-in
// form with the key in MATRIX_SIGN_IN_KEY, then consent to every permission offered), and lets the last
// redirect reach the client's own callback. mcp-remote starts it through $BROWSER (test/clients/clients.ts).
//
//   MATRIX_SIGN_IN_KEY=<api key> node --import tsx test/clients/oauth-browser.ts <authorization url>

const cookies = new Map<string, string>();

const go = async (url: string, init: RequestInit = {}): Promise<Response> => {
  const headers = new Headers(init.headers);
  if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') cookies.delete(name);
    else cookies.set(name, value);
  }
  return res;
};

const post = (url: string, form: Record<string, string | readonly string[]>): Promise<Response> => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  return go(url, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
};

const redirectOf = (res: Response, base: string): URL => {
  const to = res.headers.get('location');
  if (!to) throw new Error(`expected a redirect, got ${res.status}`);
  return new URL(to, base);
};

const formAction = (html: string): string => {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error('no form on the page');
  return action.replace(/&amp;/g, '&');
};

const hidden = (html: string, name: string): string =>
  (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

const main = async (authorizationUrl: string, key: string): Promise<void> => {
  const base = new URL(authorizationUrl).origin;
  // /authorize sends the browser to the sign-in page
  let res = await go(authorizationUrl);
  while (res.status >= 300 && res.status < 400) res = await go(redirectOf(res, base).href);
  const signIn = await res.text();
  const consent = await (await post(`${base}${formAction(signIn)}`, { api_key: key })).text();
  const offered = [...consent.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] ?? '');
  let next = redirectOf(
    await post(`${base}${formAction(consent)}`, { sign_in: hidden(consent, 'sign_in'), scope: offered }),
    base,
  );
  while (next.origin === base) next = redirectOf(await go(next.href), base);
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
