import { fitToBudget } from './budget.js';
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

/** Trailing space before a line break, or a run of blank lines: what `tidy` removes. */
const UNTIDY = /[ \t]\n|\n\n\n/;

/** No runs of blank lines and no trailing space, whichever presenter wrote the text. */
const tidy = (text: string): string =>
  UNTIDY.test(text)
    ? text
        .replace(/[ \t]+\n/g, '\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : text.trim();

export const errorEnvelope = (e: ToolError): Presented => ({
  status: e.status,
  body: { success: false, error: { code: e.code, message: e.message, details: e.details } },
});

/**
 * The response every surface gives: text for a model by default (within the output budget), the
 * structured payload with `format=json` (never cut), and either of them base64-encoded on request.
 * Errors are never encoded.
 */
export const present = (
  result: ToolResult,
  format: ResponseFormat,
  base64: boolean,
  budget = DEFAULT_OUTPUT_BUDGET,
): Presented => {
  if (!result.ok) return errorEnvelope(result.error);
  if (format === 'json') {
    return base64
      ? {
          status: 200,
          body: {
            success: true,
            data: Buffer.from(JSON.stringify(result.payload), 'utf8').toString('base64'),
            encoding: 'base64',
          },
        }
      : { status: 200, body: { success: true, data: result.payload } };
  }
  const text = fitToBudget(tidy(result.text()), budget, result.next);
  return base64
    ? { status: 200, body: { success: true, data: Buffer.from(text, 'utf8').toString('base64'), encoding: 'base64' } }
    : { status: 200, body: { success: true, data: text } };
};
