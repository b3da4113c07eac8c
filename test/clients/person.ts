// A person at a browser, in process: given an authorization URL of the gateway's own authorization server,
// follows its pages as a person would (the sign-in form with `key`, then consent to every permission
// offered) and answers the URL the last redirect sends the browser to: the client's own callback, with the
// code. oauth-browser.ts (the "browser" mcp-remote opens) and the matrix's SDK hosts (oauth-hosts.ts) use it.

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

/** Signs in with `key`, ticks every scope the consent page offers; the client's callback URL. */
export const signInAndConsent = async (authorizationUrl: string, key: string): Promise<URL> => {
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

  const base = new URL(authorizationUrl).origin;
  // /authorize sends the browser to the sign-in page
  let res = await go(authorizationUrl);
  while (res.status >= 300 && res.status < 400) {
    const next = redirectOf(res, base);
    if (next.origin !== base) return next; // refused at once: the client's callback carries the error
    res = await go(next.href);
  }
  const signIn = await res.text();
  const consent = await (await post(`${base}${formAction(signIn)}`, { api_key: key })).text();
  const offered = [...consent.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] ?? '');
  let next = redirectOf(
    await post(`${base}${formAction(consent)}`, { sign_in: hidden(consent, 'sign_in'), scope: offered }),
    base,
  );
  while (next.origin === base) next = redirectOf(await go(next.href), base);
  return next;
};
