import type { CallGuard, Principal } from '../../ports/authenticator.js';
import { GROUPS, isAllowed, type CallContext, type Group, type UseCase } from './define-tool.js';
import { explainDecodeErrors, findUnknownMember } from './arguments.js';
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { fromGatewayError, toolError, type ToolError } from './tool-error.js';

export type ToolResult =
  | { readonly ok: true; readonly tool: RegisteredTool; readonly payload: unknown; readonly text: () => string }
  | { readonly ok: false; readonly error: ToolError };

export type UseCaseResolver = (tool: RegisteredTool) => UseCase<unknown, unknown>;

export interface ExecutorOptions {
  /** Told about every unexpected exception (a bug); the caller only sees a 500 without internals. */
  readonly onInternalError?: (error: unknown, tool: string, requestId: string) => void;
}

const fail = (error: ToolError): ToolResult => ({ ok: false, error });

/**
 * The one path every surface takes: find the tool, authorise, decode the arguments, run the use case,
 * and present the result (text lazily, since `format=json` never needs it).
 */
export class ToolExecutor {
  private readonly useCases = new Map<string, UseCase<unknown, unknown>>();

  constructor(
    readonly registry: ToolRegistry,
    resolve: UseCaseResolver,
    private readonly guard: CallGuard | undefined,
    private readonly options: ExecutorOptions = {},
  ) {
    for (const tool of registry.tools) this.useCases.set(tool.name, resolve(tool));
  }

  /** A 404 that names the tools that do exist in the group (or the groups, when the group is unknown). */
  unknownTool(group: string, toolName?: string): ToolError {
    if (!(GROUPS as readonly string[]).includes(group)) {
      return toolError(404, 'NOT_FOUND', `Unknown tool group "${group}". Groups: ${GROUPS.join(', ')}. GET /v1/tools lists every tool.`, {
        resource: 'tool_group',
        id: group,
        groups: [...GROUPS],
      });
    }
    const tools = this.registry.inGroup(group as Group).map((t) => t.declaration.name);
    const name = toolName === undefined ? group : `${group}_${toolName}`;
    const available = tools.length
      ? `Tools in "${group}": ${tools.join(', ')}.`
      : `The "${group}" group has no tools yet.`;
    return toolError(404, 'NOT_FOUND', `Unknown tool "${name}". ${available}`, { resource: 'tool', id: name, tools });
  }

  /** Runs a tool by its qualified name (`crm_getContact`). */
  call(name: string, args: unknown, principal: Principal, requestId: string): Promise<ToolResult> {
    const tool = this.registry.get(name);
    if (!tool) {
      const cut = name.indexOf('_');
      return Promise.resolve(fail(this.unknownTool(cut > 0 ? name.slice(0, cut) : name, cut > 0 ? name.slice(cut + 1) : undefined)));
    }
    return this.run(tool, args, principal, requestId);
  }

  async run(tool: RegisteredTool, args: unknown, principal: Principal, requestId: string): Promise<ToolResult> {
    if (!isAllowed(principal, tool.permission)) {
      return fail(
        toolError(403, 'FORBIDDEN', `This token lacks the "${tool.permission}" permission that ${tool.name} needs.`, {
          permission: tool.permission,
          tool: tool.name,
        }),
      );
    }
    const input = args === undefined ? {} : args;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return fail(toolError(400, 'INVALID_PARAMETER', 'The parameters must be a JSON object.', { parameter: 'body', expected: 'JSON object' }));
    }
    const unknown = findUnknownMember(input, tool.inputSchema);
    if (unknown) return fail(unknown);
    const decoded = tool.declaration.params.decode(input);
    if (decoded._tag === 'Left') return fail(explainDecodeErrors(decoded.left));
    const params = decoded.right;

    if (this.guard) {
      const admitted = await this.guard.admit(principal, tool.name);
      if (!admitted.ok) {
        return fail(toolError(429, 'RATE_LIMITED', admitted.message, { retry_after_seconds: admitted.retryAfterSeconds }));
      }
    }

    const context: CallContext = { principal, requestId };
    try {
      const outcome = await this.useCases.get(tool.name)!.execute(params, context)();
      if (outcome._tag === 'Left') return fail(fromGatewayError(outcome.left));
      const result = outcome.right;
      const { declaration } = tool;
      return {
        ok: true,
        tool,
        payload: declaration.json ? declaration.json(result, params) : result,
        text: () => {
          try {
            return declaration.text(result, params);
          } catch (error) {
            // A presenter bug must not cost the caller the result: fall back to the JSON payload.
            this.options.onInternalError?.(error, tool.name, requestId);
            return JSON.stringify(result, null, 1);
          }
        },
      };
    } catch (error) {
      this.options.onInternalError?.(error, tool.name, requestId);
      return fail(toolError(500, 'INTERNAL_ERROR', `${tool.name} failed unexpectedly. The error was logged with request id ${requestId}.`, { request_id: requestId }));
    }
  }
}
