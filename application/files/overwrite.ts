import { forbidden, type Forbidden } from '../../domain/shared/errors.js';
import { isAllowed, type CallContext } from '../runtime/define-tool.js';

/**
 * The rule: a token without `files:destructive` never removes or replaces existing content.
 *
 * Tools that add content (files_getUploadUrl, files_createFolder, files_copyItem, files_moveItem) are
 * declared Write: they need `files:write`, and their annotations say readOnlyHint false, destructiveHint
 * false, because that is what they do with their default arguments. Their `overwrite: true` replaces an
 * item of the same name (the old one goes to the recycle bin, or becomes an older version), which is the
 * destructive permission's business: such a call needs `files:destructive` as well, checked here, in the
 * use case, since the executor checks one permission per tool. The annotations therefore express the
 * permission a tool needs by default (destructiveHint only on tools declared Destructive, such as
 * files_deleteItem), and the parameter's description says what overwrite needs in addition.
 */
export const OVERWRITE_PERMISSION = 'files:destructive';

/** Said in every overwrite parameter's description. */
export const OVERWRITE_NEEDS = `Needs the ${OVERWRITE_PERMISSION} permission.`;

/** A 403 for `overwrite: true` from a token that lacks files:destructive; undefined when the call may go on. */
export const overwriteRefusal = (
  overwrite: boolean | undefined,
  context: CallContext,
  tool: string,
): Forbidden | undefined =>
  overwrite === true && !isAllowed(context.principal, OVERWRITE_PERMISSION)
    ? forbidden(
        `overwrite: true replaces existing content, which needs the "${OVERWRITE_PERMISSION}" permission; this token lacks it. Call ${tool} without overwrite (a name clash then fails, or an upload gets a numbered name), or use a token with "${OVERWRITE_PERMISSION}".`,
        { permission: OVERWRITE_PERMISSION, parameter: 'overwrite', tool },
      )
    : undefined;
