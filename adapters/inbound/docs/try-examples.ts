// The bodies the reference page's "Try it" starts with (issue 37): each one a call that succeeds against the
// memory mode's demo data as it stands, so a person's first try works (test/adapters/inbound/docs/
// try-examples.test.ts runs every one on a fresh gateway). With a vendor backend the ids are the demo's and
// only show the shape. A tool whose id only an earlier call gives (a share, a comment, a batch: the demo has
// none) is listed in NEEDS_EARLIER_CALL with that call, and the page says so above the body.

type Body = Readonly<Record<string, unknown>>;

const WELCOME = 'fid4a9d210ff841f'; // home/welcome.txt
const CONTRACTS = 'fo475bc7be2cb138'; // home/Contracts
const PROJECTS = 'fo168debcc48a88b'; // home/Projects

export const TRY_EXAMPLES: Readonly<Record<string, Body>> = {
  files_getItem: { item_id: CONTRACTS },
  files_getTopLevelFolders: {},
  files_listChildren: { folder_id: 'home' },
  files_createFolder: { parent_id: 'home', name: 'Offers 2026' },
  files_updateItem: { item_id: WELCOME, description: 'Start here' },
  files_deleteItem: { item_id: WELCOME, dry_run: true },
  files_copyItem: { item_id: WELCOME, target_folder_id: PROJECTS },
  files_moveItem: { item_id: WELCOME, target_folder_id: CONTRACTS },
  files_searchItems: { query: 'budget' },
  files_getDownloadUrl: { item_id: WELCOME },
  files_getUploadUrl: { folder_id: 'home', file_name: 'notes.txt' },
  files_readFile: { item_id: WELCOME },
  files_writeFile: { folder_id: 'home', file_name: 'notes.txt', content: 'Call the seller on Monday.' },
  files_getShare: { share_id: 'sh-from-files_createShare' },
  files_listShares: {},
  files_createShare: { share_type: 'Send', items: [WELCOME], title: 'Welcome pack' },
  files_updateShare: { share_id: 'sh-from-files_createShare', title: 'Welcome pack (updated)' },
  files_deleteShare: { share_id: 'sh-from-files_createShare', dry_run: true },
  files_sendShareNotification: { share_id: 'sh-from-files_createShare', recipients: ['ana@costa.example'] },
  records_getRecord: { record_id: 70025 },
  records_listRecords: { app_id: 3001, limit: 10 },
  records_createRecord: { app_id: 3001, fields: { name: 'Ana Costa', status: ['New'] } },
  records_batchCreateRecords: {
    app_id: 3001,
    inputs: [{ fields: { name: 'Ana Costa' } }, { fields: { name: 'Ben Okoro' } }],
  },
  records_updateRecord: { record_id: 70025, fields: { status: ['Contacted'] } },
  records_batchUpdateRecords: { app_id: 3001, updates: [{ record_id: 70025, fields: { status: ['Qualified'] } }] },
  records_deleteRecord: { record_id: 70025, dry_run: true },
  records_restoreRecord: { record_id: 70025 },
  records_filterRecords: {
    app_id: 3001,
    filters: [{ field_id: 'status', match_type: 'equal', values: [{ value: 'New' }] }],
    limit: 10,
  },
  records_aggregateRecords: {
    app_id: 3003,
    aggregations: [{ operation: 'sum', field_id: 'amount' }],
    group_by: { field_id: 'stage' },
  },
  records_getRelatedRecords: { app_id: 3001, related_app_id: 3002, record_ids: [70025] },
  records_findRelatableRecords: { field_id: 300111, text: 'Harbor' },
  records_getRecordRevisions: { record_id: 70025 },
  records_createRecordComment: { record_id: 70025, value: 'Left a voicemail.' },
  records_getRecordComment: { comment_id: 1 },
  records_listRecordComments: { record_id: 70025 },
  records_deleteRecordComment: { comment_id: 1, dry_run: true },
  records_listApps: {},
  records_getApp: { app_id: 3001 },
  records_getAppViews: { app_id: 3001 },
  records_getRecordRevisionDelta: { record_id: 70025, revision_from: 0, revision_to: 0 },
  records_uploadFiles: {
    files: [{ name: 'site-plan.txt', content_base64: 'U2l0ZSBwbGFuOiBsb3QgMTIsIDQwIHggMTIwIGZ0Lg==' }],
  },
  records_getBatchResults: { batch_id: 'b-from-records_batchCreateRecords' },
  workspaces_addMemberToSpace: { space_id: 2002, role: 'light', users: [5006] },
  workspaces_createSpace: { org_id: 1001, name: 'Dispositions' },
  workspaces_endSpaceMemberships: { space_id: 2001, user_ids: [5006], dry_run: true },
  workspaces_getSpace: { space_id: 2001 },
  workspaces_getSpaceMembers: { space_id: 2001 },
  workspaces_updateSpace: { space_id: 2002, name: 'Property Management' },
  workspaces_updateSpaceMemberships: { space_id: 2001, user_ids: [5004], role: 'regular' },
  workspaces_deleteSpace: { space_id: 2003, dry_run: true },
  workspaces_getOrganizations: {},
  crm_createContact: { values: { email: 'ana@costa.example', firstname: 'Ana', lastname: 'Costa' } },
  crm_getContact: { contact_id: '101' },
  crm_updateContact: { contact_id: '101', values: { jobtitle: 'Managing Broker' } },
  crm_deleteContact: { contact_id: '104', dry_run: true },
  crm_searchContacts: { query: 'rosegold' },
  crm_getProperties: {},
  skiptrace_skipTraceProperty: { street: '1011 Rosegold St', zip: '11010' },
  web_fetch: { url: 'https://demo-web.tool-gateway.example/companies/rosegold-realty' },
  web_search: { query: 'rosegold' },
};

/** Tools whose id comes from an earlier call's answer (the demo has none of these): the call that gives it. */
export const NEEDS_EARLIER_CALL: Readonly<Record<string, string>> = {
  files_getShare: 'files_createShare',
  files_updateShare: 'files_createShare',
  files_deleteShare: 'files_createShare',
  files_sendShareNotification: 'files_createShare',
  records_getRecordComment: 'records_createRecordComment',
  records_deleteRecordComment: 'records_createRecordComment',
  records_getBatchResults: 'records_batchCreateRecords',
  records_restoreRecord: 'records_deleteRecord',
};
