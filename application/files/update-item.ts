import { inject, injectable } from 'inversify';
import type { Item } from '../../domain/files/item.js';
import { invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { TE, type TaskEither } from '../../domain/shared/fp.js';
import { ItemStore } from '../../ports/item-store.js';
import { described, NonEmptyString, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { ItemIdParam, itemJson, itemText } from './files-text.js';
import { ItemResult } from './file-results.js';

export const UpdateItemParams = params(
  { item_id: ItemIdParam('Id of the file or folder.') },
  {
    name: described(NonEmptyString, 'New name.'),
    description: described(t.string, 'New description.'),
    expiration_date: described(NonEmptyString, 'When it expires, ISO 8601.'),
  },
);
export type UpdateItemParams = t.TypeOf<typeof UpdateItemParams>;

export const isoDate = (value: string, parameter: string) =>
  /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value.trim()) &&
  !Number.isNaN(Date.parse(value.trim()))
    ? undefined
    : invalidInput(
        `"${value}" is not an ISO 8601 date. Use 2026-12-31 or 2026-12-31T17:00:00Z.`,
        parameter,
        'ISO 8601 date',
      );

@injectable()
export class UpdateItem implements UseCase<UpdateItemParams, Item> {
  constructor(@inject(ItemStore) private readonly items: ItemStore) {}
  execute(p: UpdateItemParams): TaskEither<GatewayError, Item> {
    if (p.name === undefined && p.description === undefined && p.expiration_date === undefined) {
      return TE.left(
        invalidInput(
          'Nothing to change: pass name, description or expiration_date.',
          'name',
          'at least one of name, description, expiration_date',
        ),
      );
    }
    const bad = p.expiration_date !== undefined ? isoDate(p.expiration_date, 'expiration_date') : undefined;
    if (bad) return TE.left(bad);
    return this.items.update(p.item_id.trim(), {
      ...(p.name !== undefined ? { name: p.name } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...(p.expiration_date !== undefined
        ? { expirationDate: new Date(Date.parse(p.expiration_date.trim())).toISOString() }
        : {}),
    });
  }
}

export const updateItemTool = defineTool({
  group: 'files',
  name: 'updateItem',
  title: 'Rename or describe item',
  description:
    'Changes the name, description or expiration date of a file or folder; only the given fields change. To move an item use files_moveItem.',
  annotations: { kind: 'Write', idempotent: true },
  params: UpdateItemParams,
  useCase: UpdateItem,
  result: ItemResult,
  json: itemJson,
  text: (i) => itemText(i).replace(/^## /, '## Updated '),
});
