import type { ToolDeclaration } from '../runtime/define-tool.js';
import { fetchPageTool } from './fetch-page.js';
import { searchWebTool } from './search-web.js';

/** The web group: read a page or document as text, and search the web. */
export const webTools: readonly ToolDeclaration[] = [fetchPageTool, searchWebTool];
