import { fileURLToPath } from 'node:url';

// A host page as MCP Apps hosts build one, for the views' browser tests: the view's HTML in a sandboxed
// iframe (scripts only, an opaque origin), connected through ext-apps' own AppBridge and PostMessageTransport;
// the bridge's tool calls go to the gateway through a function the test exposes (hostCallTool), and what the
// view asks of the host (open a link, update the model's context) is recorded in window.hostEvents.

const HOST_SOURCE = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
window.hostEvents = [];
window.mountView = async (html, args, result) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('title', 'Tool view');
  iframe.style.cssText = 'border:1px solid #ccc;width:100%;height:200px;display:block';
  document.body.replaceChildren(iframe);
  const bridge = new AppBridge(null, { name: 'test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, updateModelContext: { text: {} } });
  bridge.oncalltool = async (params) => window.hostCallTool(params.name, params.arguments ?? {});
  bridge.onopenlink = async ({ url }) => { window.hostEvents.push({ openLink: url }); return {}; };
  bridge.onupdatemodelcontext = async (params) => { window.hostEvents.push({ modelContext: params }); return {}; };
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = Math.ceil(height) + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = () => resolve(undefined); });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  window.hostReady = true;
};
`;

/** The host page's script, bundled with ext-apps' AppBridge by esbuild (from the package the views use). */
export const hostScript = async (): Promise<string> => {
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: HOST_SOURCE, resolveDir: fileURLToPath(new URL('.', import.meta.url)), loader: 'js' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
};
