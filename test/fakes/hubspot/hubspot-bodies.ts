import { randomUUID } from 'node:crypto';
import { READ_ONLY_PROPERTIES, type PropertyValues } from '../../../domain/crm/contact.js';
import { validatePropertyValues, type PropertyDefinition } from '../../../domain/crm/property.js';
import { E } from '../../../domain/shared/fp.js';
import type { Reply } from './request-check.js';
import type { Json } from './spec-catalogue.js';

// HubSpot's error bodies and its property list answer, as the HubSpot stand-in sends them.

export const errorBody = (message: string, category: string, extra: Json = {}): Json => ({
  status: 'error',
  message,
  correlationId: randomUUID(),
  category,
  ...extra,
});

/** HubSpot's 401 wording when no known token was sent. */
export const MISSING_CREDENTIALS =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

export const notFoundReply = (): Reply => ({
  status: 404,
  body: errorBody('resource not found', 'OBJECT_NOT_FOUND'),
});

/** HubSpot's 429 body, member for member as its usage guidelines quote it (examples/rate-limit-429.daily.example.json). */
export const rateLimitBody = (policyName: 'DAILY' | 'TEN_SECONDLY_ROLLING' | 'SECONDLY' = 'DAILY'): Json => ({
  status: 'error',
  message:
    policyName === 'DAILY' ? 'You have reached your daily limit.' : 'You have reached your ten_secondly_rolling limit.',
  errorType: 'RATE_LIMIT',
  correlationId: randomUUID(),
  policyName,
  requestId: randomUUID(),
});

/** A property error as HubSpot's v3 object APIs word it: the per-property results as JSON inside `message`. */
const propertyError = (name: string, code: string, message: string): Json =>
  errorBody(
    `Property values were not valid: ${JSON.stringify([{ isValid: false, message, error: code, name, localizedErrorMessage: message }])}`,
    'VALIDATION_ERROR',
  );

export const propertyProblem = (
  defs: ReadonlyMap<string, PropertyDefinition>,
  values: PropertyValues,
): Json | undefined => {
  const checked = validatePropertyValues(defs, values);
  if (E.isRight(checked)) return undefined;
  const name = (checked.left.parameter ?? '').replace(/^values\./, '');
  const def = defs.get(name);
  const value = values[name] ?? '';
  if (!def) return propertyError(name, 'PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`);
  if (def.readOnly || READ_ONLY_PROPERTIES.has(name))
    return propertyError(name, 'READ_ONLY_VALUE', `"${name}" is a read only property; its value cannot be set.`);
  switch (def.type) {
    case 'enumeration': {
      const allowed = (def.options ?? []).map((o) => `label: "${o.label}" value: "${o.value}"`).join(', ');
      return propertyError(name, 'INVALID_OPTION', `${value} was not one of the allowed options: [${allowed}]`);
    }
    case 'number':
      return propertyError(name, 'INVALID_INTEGER', `${value} is not a valid number`);
    case 'bool':
      return propertyError(name, 'INVALID_BOOLEAN', `${value} is not a valid boolean; use "true" or "false"`);
    default:
      return propertyError(name, 'INVALID_DATE', `${value} is not a valid date or timestamp`);
  }
};

/** A property list answer member, as HubSpot's properties API shapes it. */
export const propertyBody = (d: PropertyDefinition, i: number): Json => ({
  name: d.name,
  label: d.label,
  type: d.type,
  fieldType: d.fieldType,
  description: d.description ?? '',
  groupName: d.groupName ?? 'contactinformation',
  options: (d.options ?? []).map((o, j) => ({ label: o.label, value: o.value, displayOrder: j, hidden: false })),
  displayOrder: i,
  calculated: false,
  externalOptions: false,
  hasUniqueValue: d.name === 'email',
  hidden: false,
  formField: !d.readOnly,
  modificationMetadata: {
    archivable: !d.readOnly,
    readOnlyDefinition: true,
    readOnlyValue: Boolean(d.readOnly) || READ_ONLY_PROPERTIES.has(d.name),
  },
  createdAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-01T00:00:00.000Z',
});
