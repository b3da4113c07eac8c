// The authorization server's pages: sign-in with an API key, consent, and errors. Plain HTML forms that work
// without JavaScript; every value written into them is escaped.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** Headers for every page: nothing loads but the inline style, and no site may frame the page. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin:.4rem 0}input[type=password]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1rem;margin:.8rem .5rem 0 0}.error{color:#a40000}.muted{color:#555;font-size:.9rem}
code{background:#f2f2f2;padding:0 .2rem}`;

const layout = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;

/** What the pages say about the client asking for access. */
export interface ClientView {
  readonly name: string;
  readonly clientId: string;
  /** The host the answer goes back to (the redirect_uri's), so a person sees where the access goes. */
  readonly redirectHost: string;
}

const clientLine = (client: ClientView, service: string): string =>
  `<p><strong>${escapeHtml(client.name)}</strong> asks for access to ${escapeHtml(service)}.` +
  ` It will get the answer at <code>${escapeHtml(client.redirectHost)}</code>.</p>`;

export interface SignInPage {
  readonly service: string;
  readonly action: string;
  readonly abortAction: string;
  readonly client: ClientView;
  readonly error?: string;
  readonly demoHint?: boolean;
  /** An external OpenID provider: a "Sign in with {name}" button posting to `action`. */
  readonly federation?: { readonly name: string; readonly action: string };
}

export const signInPage = (p: SignInPage): string =>
  layout(
    `Sign in: ${p.service}`,
    `<h1>Sign in to ${escapeHtml(p.service)}</h1>` +
      clientLine(p.client, p.service) +
      (p.error ? `<p class="error" role="alert">${escapeHtml(p.error)}</p>` : '') +
      `<form method="post" action="${escapeHtml(p.action)}">` +
      `<label for="api_key">Your API key${p.demoHint ? ' (or the demo token the gateway printed at start)' : ''}</label>` +
      `<input type="password" id="api_key" name="api_key" autocomplete="off" required autofocus>` +
      `<button type="submit">Continue</button></form>` +
      (p.federation
        ? `<form method="post" action="${escapeHtml(p.federation.action)}">` +
          `<button type="submit">Sign in with ${escapeHtml(p.federation.name)}</button></form>`
        : '') +
      `<form method="post" action="${escapeHtml(p.abortAction)}"><button type="submit">Cancel</button></form>` +
      `<p class="muted">The key is checked once and never given to ${escapeHtml(p.client.name)}.</p>`,
  );

export interface ConsentPage {
  readonly service: string;
  readonly action: string;
  readonly abortAction: string;
  readonly client: ClientView;
  readonly signedInAs: string;
  readonly tenant: string;
  /** Requested and held by the key: one ticked checkbox each. */
  readonly offered: readonly string[];
  /** Requested but not held by the key: listed, never granted. */
  readonly withheld: readonly string[];
  /** The sealed sign-in the consent form carries back. */
  readonly signIn: string;
}

export const consentPage = (p: ConsentPage): string =>
  layout(
    `Allow access: ${p.service}`,
    `<h1>Allow ${escapeHtml(p.client.name)}?</h1>` +
      clientLine(p.client, p.service) +
      `<p>Signed in as <strong>${escapeHtml(p.signedInAs)}</strong> (workspace <code>${escapeHtml(p.tenant)}</code>).</p>` +
      `<form method="post" action="${escapeHtml(p.action)}">` +
      `<input type="hidden" name="sign_in" value="${escapeHtml(p.signIn)}">` +
      (p.offered.length
        ? `<fieldset><legend>It may:</legend>` +
          p.offered
            .map(
              (s, i) =>
                `<label><input type="checkbox" name="scope" value="${escapeHtml(s)}" id="scope-${i}" checked> <code>${escapeHtml(s)}</code></label>`,
            )
            .join('') +
          `</fieldset>`
        : `<p class="error">Your key holds none of the permissions asked for.</p>`) +
      (p.withheld.length
        ? `<p class="muted">Asked for but not held by your key, so not granted: ${p.withheld.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}.</p>`
        : '') +
      (p.offered.length ? `<button type="submit" name="decision" value="allow">Allow</button>` : '') +
      `</form>` +
      `<form method="post" action="${escapeHtml(p.abortAction)}"><button type="submit">Deny</button></form>`,
  );

export const errorPage = (title: string, message: string, back?: { href: string; label: string }): string =>
  layout(
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
      (back ? `<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>` : ''),
  );
