import type { Gateway } from '../../composition/gateway.js';

/** A connect flow as the browser that opened the link holds it: where the vendor was asked, and the flow cookie. */
export interface BrowserFlow {
  readonly authorize: URL;
  readonly state: string;
  /** `name=value` of the cookie the gateway set when the link was opened. */
  readonly cookie: string;
}

/** A browser opens a connect link (a NOT_CONNECTED link or an authorize_url): the 302 to the vendor and its cookie. */
export const openConnectLink = async (g: Gateway, link: string): Promise<BrowserFlow> => {
  const opened = await g.http.request(link.replace(/^https?:\/\/[^/]+/, ''));
  if (opened.status !== 302) throw new Error(`the connect link answered ${opened.status}: ${await opened.text()}`);
  const authorize = new URL(opened.headers.get('location') ?? '');
  const cookie = (opened.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  return { authorize, state: authorize.searchParams.get('state') ?? '', cookie };
};

/** The vendor sends that browser back to the callback with `query` (code, state, ...). */
export const finishInBrowser = (g: Gateway, flow: BrowserFlow, query: string): Response | Promise<Response> =>
  g.http.request(`/oauth/callback?${query}`, { headers: { cookie: flow.cookie } });
