import { cutRows, fitPage, fitText, mcpAdvice, REST_ADVICE, rowsWithin, type Advice, type Fitted } from './budget.js';
import type { Settled } from './executor.js';
import { forSurface } from './markdown.js';
import type { ToolError } from './tool-error.js';

/** Characters a text result may have unless configured otherwise (GATEWAY_OUTPUT_BUDGET_CHARS). */
export const DEFAULT_OUTPUT_BUDGET = 12_000;

/**
 * Characters the JSON of a list answer (format=json, MCP structuredContent) may have unless configured
 * otherwise (GATEWAY_JSON_BUDGET_CHARS): sixteen times the text's, since a record's JSON is about eleven
 * times its table row (a default page of 100 records: 11,436 characters of text, 121,070 of JSON), so that
 * the text's budget, not the JSON's, decides where a page is cut.
 */
export const DEFAULT_JSON_BUDGET = 16 * DEFAULT_OUTPUT_BUDGET;

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

type Succeeded = Extract<Settled, { ok: true }>;

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const callText = (result: Succeeded) =>
  result.next
    ? (shown: number) => {
        const next = result.next!(shown);
        return next && `${next.tool} ${JSON.stringify(next.arguments)}`;
      }
    : undefined;

/** The surface an answer is given on: what its text says of the structured answer and of `format=json`. */
export type Surface = 'rest' | 'mcp';

const STRUCTURED_PHRASE: Readonly<Record<Surface, string>> = {
  rest: 'with format=json',
  mcp: 'in structuredContent',
};

/**
 * The text a model reads, within the budget: a list page cut to the whole rows that fit (with `maxRows`, at
 * most that many) and naming the call for the rest, any other text cut with a visible marker. `advice`
 * says what to do when no call fetches the rest (by default REST's, `format=json`).
 */
export const budgetedText = (
  result: Succeeded,
  budget: number,
  maxRows?: number,
  surface: Surface = 'rest',
  advice: Advice = surface === 'rest' ? REST_ADVICE : mcpAdvice(isPlainObject(result.payload)),
  phrase: string = STRUCTURED_PHRASE[surface],
): Fitted => {
  const presentation = forSurface(result.presentation ? result.presentation() : result.text(), phrase);
  return typeof presentation === 'string'
    ? { text: fitText(presentation, budget, advice) }
    : fitPage(presentation, budget, callText(result), maxRows, advice);
};

/**
 * The structured payload within its budget. A list tool's payload is cut to at most `maxRows` rows (the
 * rows its text shows) and to the rows whose JSON fits, with its cursor and `truncated` naming the call for
 * the rest; `shown` is then the number of rows kept. Other payloads are whole (a single object is never cut),
 * and so is a list that no call continues (cutting it would lose rows).
 */
export const budgetedPayload = (
  result: Succeeded,
  budget: number,
  maxRows?: number,
  shape?: (payload: unknown) => unknown,
): { readonly payload: unknown; readonly shown?: number } => {
  const rows = result.tool.declaration.rows;
  const payload = shape ? shape(result.payload) : result.payload;
  if (!rows || !isPlainObject(payload) || !Array.isArray(payload[rows.key])) return { payload };
  const all = (payload[rows.key] as readonly unknown[]).length;
  const cut = (n: number) => cutRows(payload, rows, n, rows.whenCut?.(n) ?? {}, result.next?.(n));
  const size = (n: number) => JSON.stringify(n >= all ? payload : cut(n)).length;
  const shown = rowsWithin(size, Math.min(all, maxRows ?? all), budget);
  if (shown >= all) return { payload };
  const cutPayload = cut(shown);
  // A cut that could not name the call for the rest would lose rows: the page is then given whole.
  return 'truncated' in cutPayload ? { payload: cutPayload, shown } : { payload };
};

/** The characters an answer may have: its text, and the JSON of its structured answer. */
export interface Budgets {
  readonly text: number;
  readonly json: number;
}

export const DEFAULT_BUDGETS: Budgets = { text: DEFAULT_OUTPUT_BUDGET, json: DEFAULT_JSON_BUDGET };

/**
 * The text and the structured payload of one answer: each within its own budget, and both with the same
 * rows of a list, so that the text's "the rest" call, the payload's cursor and its `truncated.next` agree. A
 * page is cut where its text reaches the text budget, or sooner where its JSON reaches the JSON budget.
 */
export const budgetedPair = (
  result: Succeeded,
  budgetsOrText: Budgets | number = DEFAULT_BUDGETS,
  surface: Surface = 'mcp',
  /**
   * The structured answer in another shape than the payload (MCP's table rows: adapters/inbound/mcp/
   * table-rows.ts), with the same rows in the same order, and how the text names the whole payload then.
   */
  reshaped?: { readonly shape: (payload: unknown) => unknown; readonly phrase: string },
) => {
  // a number: the text's budget, with the JSON's default
  const budgets = typeof budgetsOrText === 'number' ? budgetsFor({ text: budgetsOrText }) : budgetsOrText;
  const textOf = (maxRows?: number) =>
    reshaped
      ? budgetedText(result, budgets.text, maxRows, surface, undefined, reshaped.phrase)
      : budgetedText(result, budgets.text, maxRows, surface);
  let text = textOf();
  const structured = budgetedPayload(result, budgets.json, text.shownRows, reshaped?.shape);
  if (structured.shown !== undefined && structured.shown !== text.shownRows) text = textOf(structured.shown);
  return { text: text.text, payload: structured.payload };
};

/**
 * The response every surface gives: text for a model by default, the structured payload with
 * `format=json`, both within the output budget (a list is cut to whole rows and names the call for the
 * rest), and either of them base64-encoded on request. Errors are never encoded.
 */
export const present = (
  result: Settled,
  format: ResponseFormat,
  base64: boolean,
  budgets: Budgets = DEFAULT_BUDGETS,
): Presented => {
  if (!result.ok) return errorEnvelope(result.error);
  if (format === 'json') {
    // The rows the text would show, within the JSON's own budget.
    const { shownRows } = result.tool.declaration.rows ? budgetedText(result, budgets.text) : {};
    const { payload } = budgetedPayload(result, budgets.json, shownRows);
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
  const { text } = budgetedText(result, budgets.text);
  return base64
    ? { status: 200, body: { success: true, data: Buffer.from(text, 'utf8').toString('base64'), encoding: 'base64' } }
    : { status: 200, body: { success: true, data: text } };
};

/** A surface's budgets for one call: the configured ones, each lowered to `maxChars` when the call gives it. */
export const budgetsFor = (configured: Partial<Budgets>, maxChars?: number): Budgets => {
  const text = configured.text ?? DEFAULT_OUTPUT_BUDGET;
  const json = configured.json ?? DEFAULT_JSON_BUDGET;
  return maxChars === undefined ? { text, json } : { text: Math.min(text, maxChars), json: Math.min(json, maxChars) };
};
