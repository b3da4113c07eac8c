import { App } from '@modelcontextprotocol/ext-apps';
import { button, facts, h, replace, status } from './dom.js';

// What every view shares: the App bridge to the host (ext-apps), the tool's input and result as the host
// passes them, and the two answers any view's tool may give instead of its data: a person's approval ask
// (approval card) and NOT_CONNECTED (connection card). Each view renders its own data (`Renderer`).

export interface ToolAnswer {
  readonly content?: readonly { type: string; text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

export interface ViewContext {
  readonly app: App;
  readonly root: HTMLElement;
  /** The tool call's arguments, as the host passed them (ui/notifications/tool-input). */
  args: Record<string, unknown>;
}

export type Renderer = (answer: ToolAnswer, ctx: ViewContext) => void;

const ERROR_META_KEY = 'tool-gateway/error';

interface GatewayError {
  readonly code: string;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export const errorOf = (answer: ToolAnswer): GatewayError | undefined =>
  answer.isError ? (answer._meta?.[ERROR_META_KEY] as GatewayError | undefined) : undefined;

export const textOf = (answer: ToolAnswer): string =>
  (answer.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');

/** Calls a server tool through the host; a refusal by the host becomes an error answer, never a throw. */
export const callTool = async (ctx: ViewContext, name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
  try {
    return (await ctx.app.callServerTool({ name, arguments: args })) as ToolAnswer;
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }] };
  }
};

/** Tells the model what the person did in the view (hosts without the method: nothing). */
export const tellModel = (ctx: ViewContext, text: string): void => {
  ctx.app.updateModelContext({ content: [{ type: 'text', text }] }).catch(() => undefined);
};

const VENDORS: Record<string, string> = {
  hubspot: 'HubSpot',
  sharefile: 'ShareFile',
  podio: 'Podio',
  batchdata: 'BatchData',
};

const connectionCard = (error: GatewayError, ctx: ViewContext): void => {
  const details = error.details ?? {};
  const vendor = String(details['vendor'] ?? '');
  const label = VENDORS[vendor] ?? vendor;
  const url = typeof details['connect_url'] === 'string' ? details['connect_url'] : undefined;
  const reauthorize = details['connection_status'] === 'needs_reauthorization';
  const note = h('p', { class: 'muted' }, 'The link opens in your browser; come back here when you are done.');
  replace(
    ctx.root,
    h(
      'section',
      { 'aria-labelledby': 'connect-title' },
      h('h1', { id: 'connect-title' }, `${reauthorize ? 'Reconnect' : 'Connect'} ${label}`),
      h('p', {}, error.message),
      url
        ? h(
            'div',
            { class: 'actions' },
            button(
              `${reauthorize ? 'Reconnect' : 'Connect'} ${label}`,
              () => {
                ctx.app.openLink({ url }).catch(() => replace(note, `Open this link: ${url}`));
              },
              'primary',
            ),
          )
        : h('p', {}, 'Ask an administrator to connect it.'),
      note,
    ),
  );
};

/** The approval card: what the call would do, why it needs a person, and Approve / Decline. */
const approvalCard = (error: GatewayError, ctx: ViewContext, render: Renderer): void => {
  const d = error.details ?? {};
  const tool = String(d['tool'] ?? '');
  const preview = (d['preview'] ?? {}) as Record<string, unknown>;
  const outcome = h('div', { 'aria-live': 'polite' });
  const answer = async (approved: boolean) => {
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    replace(outcome, status('info', approved ? 'Running it…' : 'Declining…'));
    // Through the tool-search meta tool (gateway_callTool {name, arguments}) the gated call's arguments are inside.
    const inner =
      ctx.args['name'] === tool && typeof ctx.args['arguments'] === 'object' ? ctx.args['arguments'] : undefined;
    const result = await callTool(ctx, 'views_answerApproval', {
      tool,
      arguments: inner ?? ctx.args,
      approval_token: d['approval_token'],
      approved,
    });
    const refused = errorOf(result);
    if (result.isError) {
      const declined = refused?.code === 'APPROVAL_DECLINED';
      replace(outcome, status(declined ? 'info' : 'bad', declined ? 'Declined: nothing was changed.' : textOf(result)));
      tellModel(
        ctx,
        declined ? `The person declined ${tool}; nothing was changed.` : `${tool} did not run: ${textOf(result)}`,
      );
      return;
    }
    tellModel(ctx, `The person approved ${tool} and it ran:\n\n${textOf(result)}`);
    replace(outcome, status('ok', 'Approved: it ran.'));
    const rendered = h('div');
    outcome.append(rendered);
    render(result, { ...ctx, root: rendered });
  };
  const actions = h(
    'div',
    { class: 'actions' },
    button('Approve', () => void answer(true), 'primary'),
    button('Decline', () => void answer(false), 'danger'),
  );
  replace(
    ctx.root,
    h(
      'section',
      { 'aria-labelledby': 'approval-title' },
      h('h1', { id: 'approval-title' }, `Approve ${tool}?`),
      h('p', {}, `This call would ${String(d['would'] ?? 'change data')}.`),
      h('p', { class: 'muted' }, `It needs your approval because ${String(d['reason'] ?? 'it cannot be undone')}.`),
      facts(Object.entries(preview).slice(0, 20)),
      actions,
      outcome,
    ),
  );
};

/** Shows one answer: the approval card, the connection card, an error, or the view's own rendering. */
export const show = (answer: ToolAnswer, ctx: ViewContext, render: Renderer): void => {
  const error = errorOf(answer);
  if (error?.code === 'APPROVAL_REQUIRED') return approvalCard(error, ctx, render);
  if (error?.code === 'NOT_CONNECTED') return connectionCard(error, ctx);
  if (answer.isError) return replace(ctx.root, status('bad', textOf(answer) || 'The call failed.'));
  render(answer, ctx);
};

/** Starts a view: connects to the host and renders each tool result it passes. */
export const startView = (name: string, render: Renderer): void => {
  const root = document.getElementById('view');
  if (!root) return;
  const app = new App({ name: `tool-gateway-${name}`, version: '1.0.0' }, {}, { autoResize: true });
  const ctx: ViewContext = { app, root, args: {} };
  app.ontoolinput = (params) => {
    ctx.args = (params.arguments ?? {}) as Record<string, unknown>;
  };
  app.ontoolresult = (result) => show(result as ToolAnswer, ctx, render);
  app.connect().catch((error: unknown) => {
    replace(root, status('bad', `Could not reach the host: ${error instanceof Error ? error.message : String(error)}`));
  });
};
