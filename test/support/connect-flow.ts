import type { Gateway } from '../../composition/gateway.js';

/** A connect flow as the browser that opened the link holds it: where the vendor was asked, and the flow cookie. */
export interface BrowserFlow {
  readonly authorize: URL;
  readonly state: string;
  /** `name=value` of the cookie the gateway set when the person signed in on the connect page. */
  readonly cookie: string;
}

const cookiePairs = (r: Response): string[] => r.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');

/** The connect page a browser gets for a link: its status, the form's hidden fields and the form cookie. */
export const openConnectPage = async (
  g: Gateway,
  link: string,
): Promise<{ status: number; html: string; ticket: string; form: string; cookie: string }> => {
  const page = await g.http.request(link.replace(/^https?:\/\/[^/]+/, ''));
  const html = await page.text();
  const field = (name: string) =>
    (new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '').replace(/&amp;/g, '&');
  return {
    status: page.status,
    html,
    ticket: field('ticket'),
    form: field('form'),
    cookie: cookiePairs(page).find((c) => c.startsWith('tg-connect-form=')) ?? '',
  };
};

/** The sign-in form posted from that page with `key` (the cookie and fields as the browser sends them). */
export const signInOnConnectPage = async (
  g: Gateway,
  link: string,
  key: string,
  tamper: { cookie?: string; form?: string } = {},
): Promise<Response> => {
  const page = await openConnectPage(g, link);
  if (page.status !== 200) throw new Error(`the connect link answered ${page.status}: ${page.html}`);
  const vendor = new URL(link, 'http://x').pathname;
  return g.http.request(vendor, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: tamper.cookie ?? page.cookie },
    body: new URLSearchParams({ ticket: page.ticket, form: tamper.form ?? page.form, api_key: key }).toString(),
  });
};

/**
 * A person opens a connect link (a NOT_CONNECTED link or an authorize_url), signs in with `key` (the key of
 * the caller the link was made for), and is sent to the vendor: the redirect and the flow cookie.
 */
export const openConnectLink = async (g: Gateway, link: string, key: string): Promise<BrowserFlow> => {
  const opened = await signInOnConnectPage(g, link, key);
  if (opened.status !== 303) throw new Error(`the connect page answered ${opened.status}: ${await opened.text()}`);
  const authorize = new URL(opened.headers.get('location') ?? '');
  const cookie = cookiePairs(opened).find((c) => !c.startsWith('tg-connect-form=')) ?? '';
  return { authorize, state: authorize.searchParams.get('state') ?? '', cookie };
};

/** The vendor sends that browser back to the callback with `query` (code, state, ...). */
export const finishInBrowser = (g: Gateway, flow: BrowserFlow, query: string): Response | Promise<Response> =>
  g.http.request(`/oauth/callback?${query}`, { headers: { cookie: flow.cookie } });
