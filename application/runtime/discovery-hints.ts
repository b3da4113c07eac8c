import type { RegisteredTool } from './registry.js';

// What a find answer says besides a tool's purpose (issue 41), so that most tasks need no describe: where
// each required id comes from ("app_id: from records_listApps"), and for a tool whose arguments nest (a list
// of filter objects, a map of field values) one example call. Examples use the demo account's ids (the
// memory mode's Leads app is 3001); with a vendor, the shape is what counts, and the text says so.

/** The tools that give a parameter's values, by parameter name; only those the caller can see are named. */
const ID_SOURCES: Readonly<Record<string, readonly string[]>> = {
  app_id: ['records_listApps'],
  related_app_id: ['records_getApp'],
  record_id: ['records_filterRecords', 'records_listRecords'],
  record_ids: ['records_filterRecords', 'records_listRecords'],
  field_id: ['records_getApp'],
  fields: ['records_getApp'],
  comment_id: ['records_listRecordComments'],
  revision_from: ['records_getRecordRevisions'],
  revision_to: ['records_getRecordRevisions'],
  item_id: ['files_searchItems', 'files_listChildren'],
  folder_id: ['files_listChildren', 'files_getTopLevelFolders'],
  parent_id: ['files_listChildren', 'files_getTopLevelFolders'],
  target_folder_id: ['files_listChildren', 'files_getTopLevelFolders'],
  share_id: ['files_listShares'],
  contact_id: ['crm_searchContacts'],
  values: ['crm_getProperties'],
  space_id: ['workspaces_getOrganizations'],
  org_id: ['workspaces_getOrganizations'],
  user_ids: ['workspaces_getSpaceMembers'],
};

/** Folder parameters that also take an alias, so a task in the home folder needs no lookup. */
const TAKES_HOME = new Set(['folder_id', 'parent_id', 'target_folder_id']);

/** A tool named as a source, with what it needs: `files_searchItems (needs query)`. */
export const withNeeds = (tool: RegisteredTool): string =>
  tool.requiredParameters.length ? `${tool.name} (needs ${tool.requiredParameters.join(', ')})` : tool.name;

/** Where a required parameter's value comes from, among the visible tools, or undefined. */
export const idSource = (
  tool: RegisteredTool,
  parameter: string,
  visible: ReadonlyMap<string, RegisteredTool>,
): string | undefined => {
  const sources = (ID_SOURCES[parameter] ?? []).flatMap((s) => {
    const source = s === tool.name ? undefined : visible.get(s);
    return source ? [withNeeds(source)] : [];
  });
  if (!sources.length) return parameter === 'batch_id' ? 'the batch_id of a batch answer' : undefined;
  return `${sources.join(' or ')}${TAKES_HOME.has(parameter) ? ', or "home"' : ''}`;
};

/**
 * Most other tools of the best hit's group named in a find answer (each with what it needs): as many as the
 * largest group has, so that one find maps a group and a task's later steps in it need no second find.
 */
export const MAX_RELATED = 24;

/**
 * The other tools of the best hit's group, named with what they need: one find then maps the whole task
 * ("find the contact, then update it"), so the next step rarely needs another find. `ranked`: the search's
 * order beyond the hits shown; the group's other tools follow in catalogue order.
 */
export const relatedTools = (
  found: readonly RegisteredTool[],
  ranked: readonly RegisteredTool[],
  visible: readonly RegisteredTool[],
): RegisteredTool[] => {
  const group = found[0]?.declaration.group;
  const shown = new Set(found.map((t) => t.name));
  const others = [...ranked, ...visible].filter((t) => t.declaration.group === group && !shown.has(t.name));
  return [...new Set(others)].slice(0, MAX_RELATED);
};

/** A related tool as a find answer's payload gives it. */
export const relatedEntry = (t: RegisteredTool) => ({
  name: t.name,
  required: t.requiredParameters,
  ...(EXAMPLES[t.name] ? { example: EXAMPLES[t.name] } : {}),
});

/** A related tool in a find answer's text. */
export const relatedText = (t: RegisteredTool): string =>
  EXAMPLES[t.name] ? `${withNeeds(t)} e.g. ${JSON.stringify(EXAMPLES[t.name])}` : withNeeds(t);

/** One example call for each tool whose arguments nest (checked against each tool's codec in the tests). */
export const EXAMPLES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  records_filterRecords: {
    app_id: 3001,
    filters: [{ field_id: 'status', match_type: 'equal', values: [{ value: 'New' }] }],
  },
  records_aggregateRecords: {
    app_id: 3003,
    aggregations: [{ operation: 'sum', field_id: 'amount' }],
    group_by: { field_id: 'stage' },
  },
  records_createRecord: { app_id: 3001, fields: { name: 'Ana Costa', status: ['New'] } },
  records_updateRecord: { record_id: 70001, fields: { status: ['Contacted'] } },
  records_batchCreateRecords: {
    app_id: 3001,
    inputs: [{ fields: { name: 'Ana Costa' } }, { fields: { name: 'Ben Okoro' } }],
  },
  records_batchUpdateRecords: {
    app_id: 3001,
    updates: [{ record_id: 70001, fields: { status: ['Qualified'] } }],
  },
  records_uploadFiles: { files: [{ url: 'https://example.com/site-plan.pdf' }] },
  crm_createContact: { values: { email: 'ana@costa.example', firstname: 'Ana', lastname: 'Costa' } },
  crm_updateContact: { contact_id: '101', values: { jobtitle: 'Managing Broker' } },
  crm_searchContacts: {
    filter_groups: [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acme.com' }] }],
  },
  workspaces_addMemberToSpace: { space_id: 2002, role: 'light', users: [5006] },
};
