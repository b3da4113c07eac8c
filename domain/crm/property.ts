import { E, type Either } from '../shared/fp.js';
import { invalidInput, type InvalidInput } from '../shared/errors.js';
import { READ_ONLY_PROPERTIES, type PropertyValues } from './contact.js';

export type PropertyType = 'string' | 'number' | 'date' | 'datetime' | 'enumeration' | 'bool' | 'phone_number';

export interface PropertyOption {
  readonly value: string;
  readonly label: string;
}

/** A CRM property definition, as getProperties returns it. */
export interface PropertyDefinition {
  readonly name: string;
  readonly label: string;
  readonly type: PropertyType;
  /** How HubSpot renders the input: text, textarea, select, radio, checkbox, booleancheckbox, date, number, phonenumber... */
  readonly fieldType: string;
  readonly description?: string;
  readonly options?: readonly PropertyOption[];
  readonly readOnly?: boolean;
  readonly groupName?: string;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const checkValue = (def: PropertyDefinition, value: string): string | undefined => {
  if (value === '') return undefined; // clearing a property is always allowed
  switch (def.type) {
    case 'number':
      return NUMBER.test(value) ? undefined : `a number written as a string, such as "42"`;
    case 'bool':
      return value === 'true' || value === 'false' ? undefined : `"true" or "false"`;
    case 'date':
      return DATE.test(value) || /^\d+$/.test(value) ? undefined : `a date "YYYY-MM-DD" or epoch milliseconds`;
    case 'datetime':
      return /^\d+$/.test(value) || !Number.isNaN(Date.parse(value))
        ? undefined
        : `an ISO 8601 timestamp or epoch milliseconds`;
    case 'enumeration': {
      const allowed = new Set((def.options ?? []).map((o) => o.value));
      const parts = def.fieldType === 'checkbox' ? value.split(';') : [value];
      const bad = parts.find((p) => !allowed.has(p));
      if (bad === undefined) return undefined;
      const list = (def.options ?? []).map((o) => `${o.value} (${o.label})`).join(', ');
      return `one of the internal values ${list}${def.fieldType === 'checkbox' ? ', several joined with ";"' : ''}; got "${bad}"`;
    }
    default:
      return undefined;
  }
};

/**
 * Checks property values the way HubSpot does before it writes: the property must exist, must not be
 * read-only, and enumeration values must be internal option values.
 */
export const validatePropertyValues = (
  definitions: ReadonlyMap<string, PropertyDefinition>,
  values: PropertyValues,
  parameter = 'values',
): Either<InvalidInput, PropertyValues> => {
  for (const [name, value] of Object.entries(values)) {
    const def = definitions.get(name);
    if (!def) {
      const known = [...definitions.keys()].slice(0, 25).join(', ');
      return E.left(
        invalidInput(
          `Property "${name}" does not exist. Known properties include: ${known}. crm_getProperties lists them all.`,
          `${parameter}.${name}`,
          'name of an existing property',
        ),
      );
    }
    if (def.readOnly || READ_ONLY_PROPERTIES.has(name)) {
      return E.left(
        invalidInput(
          `Property "${name}" is read-only and set by the CRM itself.`,
          `${parameter}.${name}`,
          'writable property',
        ),
      );
    }
    if (value === null) continue;
    const problem = checkValue(def, value);
    if (problem) {
      return E.left(
        invalidInput(`Property "${name}" (${def.label}) takes ${problem}.`, `${parameter}.${name}`, problem),
      );
    }
  }
  return E.right(values);
};
