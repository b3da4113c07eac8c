const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PageAssets {
  /** Paths relative to the page (served at /docs), so the page also works behind a path prefix. */
  readonly script: string;
  readonly style: string;
  readonly version: string;
}

/** The page shell; the script fills in the tool list and the tool details from GET /v1/tools. */
export const docsPage = ({ script, style, version }: PageAssets): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Tool Gateway API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(style)}">
<script src="${escapeHtml(script)}" defer></script>
</head>
<body>
<header class="top">
  <div class="brand"><h1>Tool Gateway</h1><span class="muted">API reference · version ${escapeHtml(version)}</span></div>
  <nav aria-label="Machine-readable documents"><a href="v1/tools">Tool listing (JSON)</a><a href="openapi.json">OpenAPI</a></nav>
</header>
<div class="layout">
  <aside class="sidebar">
    <section id="signin" class="signin" aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      <form id="signin-form" autocomplete="off">
        <label for="token">Bearer token</label>
        <input id="token" name="token" type="password" spellcheck="false" autocomplete="off" aria-describedby="signin-error">
        <button id="signin-button" type="submit" class="primary">Sign in</button>
      </form>
      <div id="signed-in" hidden>
        <p id="signin-status" role="status"></p>
        <button id="signout-button" type="button">Sign out</button>
      </div>
      <p id="signin-error" class="error" role="alert" hidden></p>
    </section>
    <label for="filter" class="visually-hidden">Filter tools</label>
    <input id="filter" type="search" placeholder="Filter tools" autocomplete="off">
    <nav id="tool-list" aria-label="Tools"><p class="muted">Loading the tools…</p></nav>
    <details class="connections" id="mcp">
      <summary>Connect over MCP</summary>
      <p>The same tools are served over MCP (Streamable HTTP) at <code>/mcp</code> on this server: the page's own address with <code>docs</code> replaced by <code>mcp</code>, e.g. <code>https://gateway.example.com/mcp</code>.</p>
      <ul>
        <li>With a token: send <code>Authorization: Bearer &lt;token&gt;</code> on every request, the same token this page signs in with.</li>
        <li>With no token: an MCP client that speaks OAuth (Claude, ChatGPT, Cursor, VS Code, <code>mcp-remote</code>) gets <code>401</code>, discovers the sign-in, and opens a browser where a person signs in once; write and delete permissions are asked for when a tool first needs them.</li>
        <li>Client by client setup, callbacks and troubleshooting: <code>docs/clients.md</code> in the gateway's repository and package.</li>
      </ul>
    </details>
    <details class="connections">
      <summary>Connections and audit</summary>
      <p>Each tenant connects its own vendor accounts. A tool whose vendor is not connected answers <code>409 NOT_CONNECTED</code> with <code>details.connect_url</code>, a link a person opens to connect.</p>
      <ul>
        <li><code>GET /v1/connections</code>: the tenant's connections, never a secret.</li>
        <li><code>POST /v1/connections/{vendor}</code> <code>{"key": "…"}</code>: a BatchData API key or HubSpot private-app token, checked once against the vendor.</li>
        <li><code>GET /v1/connections/{vendor}/authorize</code>: a connect link for a person's browser, which goes on to the vendor's OAuth page; <code>/oauth/callback</code> finishes.</li>
        <li><code>DELETE /v1/connections/{vendor}</code>: revoke where the vendor can, then forget.</li>
        <li><code>?scope=user</code>: your own connection; tenant-wide ones need <code>connections:manage</code>.</li>
        <li><code>GET /v1/audit?since=&amp;tool=&amp;principal=</code>: writes, deletes and connection changes (needs <code>audit:read</code>).</li>
      </ul>
    </details>
  </aside>
  <main id="tool-detail" tabindex="-1">
    <noscript><p>This page needs JavaScript. The tools are listed at <a href="v1/tools">/v1/tools</a> and described in <a href="openapi.json">/openapi.json</a>.</p></noscript>
  </main>
</div>
</body>
</html>
`;
