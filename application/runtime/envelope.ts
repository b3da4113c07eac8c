import { cutRows, fitPage, fitText, rowsWithin, type Fitted } from './budget.js';
import type { ToolResult } from './executor.js';

/** Characters a text result may have unless configured otherwise (GATEWAY_OUTPUT_BUDGET_CHARS). */
export const DEFAULT_OUTPUT_BUDGET = 12_000;
import type { ToolError } from './tool-error.js';

export type ResponseFormat = 'text' | 'json';

export type Envelope =
  | { readonly success: true; readonly data: unknown; readonly encoding?: 'base64' }
  | {
      readonly success: false;
      readonly error: {
        readonly code: string;
        readonly message: string;
        readonly details: Readonly<Record<string, unknown>>;
      };
    };

export interface Presented {
  readonly status: number;
  readonly body: Envelope;
}

export const errorEnvelope = (e: ToolError): Presented => ({
  status: e.status,
  body: { success: false, error: { code: e.code, message: e.message, details: e.details } },
});

type Succeeded = Extract<ToolResult, { ok: true }>;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const callText = (result: Succeeded) =>
  result.next
    ? (shown: number) => {
        const next = result.next!(shown);
        return next && `${next.tool} ${JSON.stringify(next.arguments)}`;
      }
    : undefined;

/**
 * The text a model reads, within the budget: a list page cut to the whole rows that fit (with `maxRows`, at
 * most that many) and naming the call for the rest, any other text cut with a visible marker.
 */
export const budgetedText = (result: Succeeded, budget: number, maxRows?: number): Fitted => {
  const presentation = result.presentation ? result.presentation() : result.text();
  return typeof presentation === 'string'
    ? { text: fitText(presentation, budget) }
    : fitPage(presentation, budget, callText(result), maxRows);
};

/**
 * The structured payload within the budget. A list tool's payload whose JSON is longer is cut to the rows
 * that fit (and to at most `maxRows`), with `truncated` naming the call for the rest; `shown` is then the
 * number of rows kept. Other payloads are whole (a single object is never cut).
 */
export const budgetedPayload = (
  result: Succeeded,
  budget: number,
  maxRows?: number,
): { readonly payload: unknown; readonly shown?: number } => {
  const rows = result.tool.declaration.rows;
  const payload = result.payload;
  if (!rows || !isPlainObject(payload) || !Array.isArray(payload[rows.key])) return { payload };
  const all = (payload[rows.key] as readonly unknown[]).length;
  const cut = (n: number) => cutRows(payload, rows.key, n, rows.whenCut?.(n) ?? {}, result.next?.(n));
  const size = (n: number) => JSON.stringify(n >= all ? payload : cut(n)).length;
  const shown = rowsWithin(size, Math.min(all, maxRows ?? all), budget);
  if (shown >= all) return { payload };
  const cutPayload = cut(shown);
  // A cut that could not name the call for the rest would lose rows: the page is then given whole.
  return 'truncated' in cutPayload ? { payload: cutPayload, shown } : { payload };
};

/**
 * The text and the structured payload of one answer (MCP gives both): each within the budget, and both
 * with the same rows of a list, so that the text's "the rest" call and the payload's `truncated.next` agree.
 */
export const budgetedPair = (result: Succeeded, budget = DEFAULT_OUTPUT_BUDGET) => {
  let text = budgetedText(result, budget);
  const structured = budgetedPayload(result, budget, text.shownRows);
  if (structured.shown !== undefined && structured.shown !== text.shownRows) {
    text = budgetedText(result, budget, structured.shown);
  }
  return { text: text.text, payload: structured.payload };
};

/**
 * The response every surface gives: text for a model by default, the structured payload with
 * `format=json`, both within the output budget (a list is cut to whole rows and names the call for the
 * rest), and either of them base64-encoded on request. Errors are never encoded.
 */
export const present = (
  result: ToolResult,
  format: ResponseFormat,
  base64: boolean,
  budget = DEFAULT_OUTPUT_BUDGET,
): Presented => {
  if (!result.ok) return errorEnvelope(result.error);
  if (format === 'json') {
    const { payload } = budgetedPayload(result, budget);
    return base64
      ? {
          status: 200,
          body: {
            success: true,
            data: Buffer.from(JSON.stringify(payload), 'utf8').toString('base64'),
            encoding: 'base64',
          },
        }
      : { status: 200, body: { success: true, data: payload } };
  }
  const { text } = budgetedText(result, budget);
  return base64
    ? { status: 200, body: { success: true, data: Buffer.from(text, 'utf8').toString('base64'), encoding: 'base64' } }
    : { status: 200, body: { success: true, data: text } };
};
