import { inject, injectable } from 'inversify';
import type { CrmObjectType } from '../../domain/crm/contact.js';
import type { PropertyDefinition } from '../../domain/crm/property.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { ContactBook } from '../../ports/contact-book.js';
import { described, intRange, MAX_OFFSET, oneOf, params, t } from '../runtime/codecs.js';
import { defineTool, nextOffset, type UseCase } from '../runtime/define-tool.js';
import { PropertiesResult } from './crm-results.js';
import { IN_STRUCTURED } from '../runtime/markdown.js';

export const GetPropertiesParams = params(
  {},
  {
    object_type: described(
      oneOf(['contacts', 'companies'] as const, 'ObjectType'),
      "Which object's properties to list.",
      'contacts',
    ),
    offset: described(intRange(0, MAX_OFFSET), 'Properties to skip.', 0),
  },
);
export type GetPropertiesParams = t.TypeOf<typeof GetPropertiesParams>;

export interface GetPropertiesResult {
  readonly objectType: CrmObjectType;
  /** How many properties the object has, and where this answer starts among them (by name). */
  readonly total: number;
  readonly offset: number;
  readonly properties: readonly PropertyDefinition[];
}

@injectable()
export class GetProperties implements UseCase<GetPropertiesParams, GetPropertiesResult> {
  constructor(@inject(ContactBook) private readonly contacts: ContactBook) {}

  execute(p: GetPropertiesParams): TaskEither<GatewayError, GetPropertiesResult> {
    const objectType = p.object_type;
    return pipe(
      this.contacts.properties(objectType),
      TE.map((properties) => ({
        objectType,
        total: properties.length,
        offset: p.offset,
        properties: [...properties].sort((a, b) => a.name.localeCompare(b.name)).slice(p.offset),
      })),
    );
  }
}

const MAX_OPTIONS_SHOWN = 12;

export const getPropertiesTool = defineTool({
  group: 'crm',
  name: 'getProperties',
  title: 'List CRM properties',
  description:
    'Lists contact or company properties: internal name (for values, filters and return_properties), label, type, enumeration values, and whether read-only.',
  annotations: { kind: 'Read', idempotent: true },
  params: GetPropertiesParams,
  useCase: GetProperties,
  result: PropertiesResult,
  rows: { key: 'properties' },
  continuation: (p, r, shown) => nextOffset(p, r.offset, shown, r.total),
  json: (r) => ({
    object_type: r.objectType,
    total: r.total,
    offset: r.offset,
    properties: r.properties.map((p) => ({
      name: p.name,
      label: p.label,
      type: p.type,
      field_type: p.fieldType,
      ...(p.description ? { description: p.description } : {}),
      ...(p.readOnly ? { read_only: true } : {}),
      ...(p.options ? { options: p.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
    })),
  }),
  text: (r) => {
    const rows = r.properties.map((p) => {
      const opts = p.options ?? [];
      const shown = opts
        .slice(0, MAX_OPTIONS_SHOWN)
        .map((o) => (o.value === o.label ? o.value : `${o.value} (${o.label})`));
      const more = opts.length > MAX_OPTIONS_SHOWN ? `, +${opts.length - MAX_OPTIONS_SHOWN} more` : '';
      return [p.name, p.label, p.type + (p.readOnly ? ', read-only' : ''), shown.join(', ') + more];
    });
    return {
      before: `## ${r.objectType === 'contacts' ? 'Contact' : 'Company'} properties (${r.total}${r.offset ? `; from number ${r.offset + 1}` : ''})`,
      columns: ['name', 'label', 'type', 'options (internal value)'],
      rows,
      // where a property has more options than the table shows, where to read them all (by surface)
      ...(r.properties.some((p) => (p.options?.length ?? 0) > MAX_OPTIONS_SHOWN)
        ? {
            notes: `A property with more than ${MAX_OPTIONS_SHOWN} options shows the first ${MAX_OPTIONS_SHOWN}: read them all ${IN_STRUCTURED}.`,
          }
        : {}),
    };
  },
});
