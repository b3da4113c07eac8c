import { NumericString, withHint } from '../runtime/codecs.js';
import { call } from '../runtime/markdown.js';

/**
 * A HubSpot contact id (a numeric string). An email or a name sent in its place (models do) gets the way to
 * the id: crm_searchContacts with what was sent.
 */
export const ContactId = withHint(NumericString, (value) =>
  typeof value === 'string' && value.trim()
    ? `A contact id is HubSpot's number, such as "101"; ${value.includes('@') ? 'for an email' : 'for a name'} find it with ${call('crm_searchContacts', { query: value.trim().slice(0, 100) })}.`
    : undefined,
);
