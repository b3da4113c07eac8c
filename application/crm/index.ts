import { createContactTool } from './create-contact.js';
import { deleteContactTool } from './delete-contact.js';
import { getContactTool } from './get-contact.js';
import { getPropertiesTool } from './get-properties.js';
import { searchContactsTool } from './search-contacts.js';
import { updateContactTool } from './update-contact.js';

/** The crm group: contact tools first (create, get, update, delete, search), then the helper tools. */
export const crmTools = [
  createContactTool,
  getContactTool,
  updateContactTool,
  deleteContactTool,
  searchContactsTool,
  getPropertiesTool,
] as const;
