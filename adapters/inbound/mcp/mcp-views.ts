import { ProtocolError, ProtocolErrorCode, type Tool } from '@modelcontextprotocol/server';
import { gatedBy } from '../../../application/runtime/approval.js';
import { CALL_TOOL } from '../../../application/runtime/discovery.js';
import type { RegisteredTool } from '../../../application/runtime/registry.js';
import type { ToolExecutor } from '../../../application/runtime/executor.js';
import { VIEW_MIME_TYPE } from './view-capability.js';
import { ANSWER_APPROVAL, APP_TOOLS, appToolsFor } from './view-tools.js';
import { loadViewHtml, VIEW_NAMES, type ViewName } from './views/view-html.js';

// MCP Apps views (issue 43), for a client that declares the `io.modelcontextprotocol/ui` extension
// (view-capability.ts): tools/list names a view on the tools below (`_meta.ui.resourceUri`) and lists the
// app-only tools (view-tools.ts, `visibility: ["app"]`), and resources/read serves each view's HTML as
// `text/html;profile=mcp-app`. The HTML is a static bundle (views/client, built by `npm run build`); a
// tool's data reaches it only through the host's bridge, never written into the HTML.

/** A view's resource URI. */
export const viewUri = (name: ViewName): string => `ui://tool-gateway/${name}`;

const TITLES: Record<ViewName, string> = {
  approval: 'Approval card',
  records: 'Record table',
  file: 'File preview',
  skiptrace: 'Skip-trace card',
  connect: 'Connection card',
};

const DESCRIPTIONS: Record<ViewName, string> = {
  approval: 'What a gated call would do (delete, or a billed lookup), with Approve and Decline.',
  records: 'A page of records: sort by a column, next page, open a record.',
  file: 'A file: its text a page at a time, and its download link.',
  skiptrace: "An owner's phones ranked, with call-OK, DNC and TCPA badges and the reason for each.",
  connect: 'A vendor to connect (with a Connect button) when it is not connected; otherwise a short summary.',
};

/**
 * The groups whose tools run on a vendor's connection (composition/groups: a `vendor`), so may answer
 * NOT_CONNECTED. The web group has no vendor. Listed here because an adapter does not read composition.
 */
const VENDOR_GROUPS: ReadonlySet<string> = new Set(['files', 'records', 'workspaces', 'crm', 'skiptrace']);

/**
 * The view a tool's answer is shown in, if any. Every view also shows an approval ask and NOT_CONNECTED; a
 * vendor-backed tool with no view of its own gets the connection view, so its NOT_CONNECTED has a card too.
 */
export const viewOf = (tool: RegisteredTool): ViewName | undefined => {
  if (tool.declaration.group === 'skiptrace') return 'skiptrace';
  if (tool.name === 'records_listRecords' || tool.name === 'records_filterRecords') return 'records';
  if (tool.name === 'files_getItem' || tool.name === 'files_readFile') return 'file';
  if (gatedBy(tool)) return 'approval';
  return VENDOR_GROUPS.has(tool.declaration.group) ? 'connect' : undefined;
};

/**
 * The CSP a view declares: no outside origin for anything (connections, scripts, styles, images, frames,
 * base URI). The HTML adds its own meta CSP, allowing only its inline script and style by hash.
 */
export const VIEW_CSP = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] } as const;

const resourceMeta = { ui: { csp: VIEW_CSP, prefersBorder: true } };

/**
 * A list with views: the tools that have one name it, and the app-only tools whose underlying tool the
 * caller sees are added. New objects: the shared list is left as it is for clients without views.
 */
export const withViews = (executor: ToolExecutor, tools: readonly Tool[]): Tool[] => {
  const registered = tools.flatMap((t) => executor.registry.get(t.name) ?? []);
  const listed = tools.map((t) => {
    const tool = executor.registry.get(t.name);
    // In tool-search mode every call, gated ones included, goes through the meta tool: it shows the
    // approval view (the card, the connection card, else the answer's text), so a gated call is still asked.
    const view = t.name === CALL_TOOL ? 'approval' : tool && viewOf(tool);
    return view ? { ...t, _meta: { ...(t._meta ?? {}), ui: { resourceUri: viewUri(view) } } } : t;
  });
  const appTools = appToolsFor(registered);
  const card = APP_TOOLS.find((a) => a.tool.name === ANSWER_APPROVAL)!.tool;
  if (listed.some((t) => t.name === CALL_TOOL) && !appTools.includes(card)) appTools.push(card);
  return [...listed, ...appTools];
};

/** resources/list: the views, to a client that renders them; nothing to any other. */
export const listViews = (views: boolean) => ({
  resources: views
    ? VIEW_NAMES.map((name) => ({
        uri: viewUri(name),
        name,
        title: TITLES[name],
        description: DESCRIPTIONS[name],
        mimeType: VIEW_MIME_TYPE,
        _meta: resourceMeta,
      }))
    : [],
});

/** resources/read: a view's HTML with its CSP in the content's `_meta.ui`. */
export const readView = async (uri: string) => {
  const name = VIEW_NAMES.find((n) => viewUri(n) === uri);
  if (!name) {
    throw new ProtocolError(
      ProtocolErrorCode.ResourceNotFound,
      `No resource ${JSON.stringify(uri.slice(0, 200))}. The gateway serves its views: ${VIEW_NAMES.map(viewUri).join(', ')}.`,
      { uri: uri.slice(0, 200) },
    );
  }
  return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: await loadViewHtml(name), _meta: resourceMeta }] };
};
