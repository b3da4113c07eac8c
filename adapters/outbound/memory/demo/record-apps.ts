// Demo apps of the in-memory Podio account: Leads, Properties and Deals in Acquisitions (2001), Work Orders
// in Property Management (2002), with their fields and views. Their records are seeded by records.ts.
import type { App, AppView } from '../../../../domain/records/app.js';

export const LEADS_APP = 3001;
export const PROPERTIES_APP = 3002;
export const DEALS_APP = 3003;
export const WORK_ORDERS_APP = 3004;

export const propertiesApp: App = {
  app_id: PROPERTIES_APP,
  space_id: 2001,
  name: 'Properties',
  item_name: 'Property',
  description: 'Properties we track, with type, size and asking price.',
  icon: 'house',
  fields: [
    { field_id: 300201, external_id: 'address', label: 'Address', field_type: 'single_text', required: true },
    { field_id: 300202, external_id: 'location', label: 'Location', field_type: 'single_location', required: false },
    {
      field_id: 300203,
      external_id: 'property-type',
      label: 'Property type',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Single family', color: 'DCEBD8' },
        { id: 2, text: 'Multi family', color: 'F7F0C5' },
        { id: 3, text: 'Condo', color: 'D2E4EB' },
        { id: 4, text: 'Land', color: 'E1D8ED' },
      ],
    },
    { field_id: 300204, external_id: 'bedrooms', label: 'Bedrooms', field_type: 'number', required: false },
    { field_id: 300205, external_id: 'square-feet', label: 'Square feet', field_type: 'number', required: false },
    {
      field_id: 300206,
      external_id: 'asking-price',
      label: 'Asking price',
      field_type: 'money',
      required: false,
      currencies: ['USD'],
    },
    { field_id: 300207, external_id: 'listed-on', label: 'Listed on', field_type: 'single_date', required: false },
    { field_id: 300208, external_id: 'listing', label: 'Listing', field_type: 'multi_link', required: false },
    { field_id: 300209, external_id: 'photos', label: 'Photos', field_type: 'multi_image', required: false },
    {
      field_id: 300210,
      external_id: 'year-built',
      label: 'Year built',
      field_type: 'calculation',
      required: false,
      description: 'Read-only.',
    },
  ],
};

export const leadsApp: App = {
  app_id: LEADS_APP,
  space_id: 2001,
  name: 'Leads',
  item_name: 'Lead',
  description: 'Motivated sellers and how far we got with them.',
  icon: 'user',
  fields: [
    { field_id: 300101, external_id: 'name', label: 'Name', field_type: 'single_text', required: true },
    {
      field_id: 300102,
      external_id: 'status',
      label: 'Status',
      field_type: 'status',
      required: false,
      options: [
        { id: 1, text: 'New', color: 'DCEBD8' },
        { id: 2, text: 'Contacted', color: 'F7F0C5' },
        { id: 3, text: 'Qualified', color: 'D2E4EB' },
        { id: 4, text: 'Won', color: '9CE2A9', means_completed: true },
        { id: 5, text: 'Lost', color: 'F5C2C2', means_completed: true },
      ],
    },
    {
      field_id: 300103,
      external_id: 'source',
      label: 'Source',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Website' },
        { id: 2, text: 'Referral' },
        { id: 3, text: 'Cold call' },
        { id: 4, text: 'Direct mail' },
      ],
    },
    {
      field_id: 300104,
      external_id: 'motivation',
      label: 'Motivation',
      field_type: 'multi_category',
      required: false,
      options: [
        { id: 1, text: 'Probate' },
        { id: 2, text: 'Absentee owner' },
        { id: 3, text: 'Vacant' },
        { id: 4, text: 'Tax lien' },
        { id: 5, text: 'Divorce' },
      ],
    },
    { field_id: 300105, external_id: 'email', label: 'Email', field_type: 'multi_email', required: false },
    { field_id: 300106, external_id: 'phone', label: 'Phone', field_type: 'multi_phone', required: false },
    { field_id: 300107, external_id: 'owner', label: 'Owner', field_type: 'single_user', required: false },
    {
      field_id: 300108,
      external_id: 'budget',
      label: 'Budget',
      field_type: 'money',
      required: false,
      currencies: ['USD', 'EUR'],
    },
    {
      field_id: 300109,
      external_id: 'next-follow-up',
      label: 'Next follow-up',
      field_type: 'single_date',
      required: false,
    },
    { field_id: 300110, external_id: 'score', label: 'Score', field_type: 'number', required: false },
    {
      field_id: 300111,
      external_id: 'property',
      label: 'Property',
      field_type: 'single_relation',
      required: false,
      referenced_app_ids: [PROPERTIES_APP],
    },
    { field_id: 300112, external_id: 'tasks', label: 'Tasks', field_type: 'checklist', required: false },
    { field_id: 300113, external_id: 'notes', label: 'Notes', field_type: 'multi_text', required: false },
    {
      field_id: 300114,
      external_id: 'first-contact',
      label: 'First contact',
      field_type: 'single_date',
      required: false,
    },
  ],
};

export const dealsApp: App = {
  app_id: DEALS_APP,
  space_id: 2001,
  name: 'Deals',
  item_name: 'Deal',
  description: 'Offers and contracts, linked to their lead and properties.',
  icon: 'handshake',
  fields: [
    { field_id: 300301, external_id: 'title', label: 'Title', field_type: 'single_text', required: true },
    {
      field_id: 300302,
      external_id: 'lead',
      label: 'Lead',
      field_type: 'single_relation',
      required: false,
      referenced_app_ids: [LEADS_APP],
    },
    {
      field_id: 300303,
      external_id: 'properties',
      label: 'Properties',
      field_type: 'multi_relation',
      required: false,
      referenced_app_ids: [PROPERTIES_APP],
    },
    {
      field_id: 300304,
      external_id: 'stage',
      label: 'Stage',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Offer' },
        { id: 2, text: 'Under contract' },
        { id: 3, text: 'Closed' },
        { id: 4, text: 'Dead' },
      ],
    },
    {
      field_id: 300305,
      external_id: 'amount',
      label: 'Amount',
      field_type: 'money',
      required: false,
      currencies: ['USD'],
    },
    {
      field_id: 300306,
      external_id: 'contract-period',
      label: 'Contract period',
      field_type: 'range_date',
      required: false,
    },
    { field_id: 300307, external_id: 'close-date', label: 'Close date', field_type: 'single_date', required: false },
    { field_id: 300308, external_id: 'team', label: 'Team', field_type: 'multi_user', required: false },
    { field_id: 300309, external_id: 'documents', label: 'Documents', field_type: 'attachment', required: false },
    {
      field_id: 300310,
      external_id: 'closing-checklist',
      label: 'Closing checklist',
      field_type: 'checklist',
      required: false,
    },
    {
      field_id: 300311,
      external_id: 'commission',
      label: 'Commission',
      field_type: 'calculation',
      required: false,
      description: '3% of the amount (read-only).',
    },
  ],
};

export const workOrdersApp: App = {
  app_id: WORK_ORDERS_APP,
  space_id: 2002,
  name: 'Work Orders',
  item_name: 'Work order',
  description: 'Repairs and maintenance on managed properties.',
  icon: 'wrench',
  fields: [
    { field_id: 300401, external_id: 'summary', label: 'Summary', field_type: 'single_text', required: true },
    {
      field_id: 300402,
      external_id: 'priority',
      label: 'Priority',
      field_type: 'single_category',
      required: false,
      options: [
        { id: 1, text: 'Low' },
        { id: 2, text: 'Normal' },
        { id: 3, text: 'Urgent' },
      ],
    },
    { field_id: 300403, external_id: 'due', label: 'Due', field_type: 'single_date', required: false },
    { field_id: 300404, external_id: 'assigned-to', label: 'Assigned to', field_type: 'multi_user', required: false },
    { field_id: 300405, external_id: 'cost', label: 'Cost', field_type: 'number', required: false },
    { field_id: 300406, external_id: 'created', label: 'Created', field_type: 'created_on', required: false },
    { field_id: 300407, external_id: 'reported-by', label: 'Reported by', field_type: 'created_by', required: false },
  ],
};

export const demoViews: Record<number, readonly AppView[]> = {
  [LEADS_APP]: [
    {
      view_id: 400101,
      name: 'Open leads',
      filters: [{ field_id: '300102', match_type: 'incomplete' }],
      sort_by: 'score',
      sort_desc: true,
    },
    {
      view_id: 400102,
      name: 'Probate leads',
      filters: [{ field_id: 'motivation', match_type: 'any', values: [{ value: 1 }] }],
    },
  ],
  [DEALS_APP]: [
    {
      view_id: 400301,
      name: 'Closed deals',
      filters: [{ field_id: 'stage', match_type: 'equal', values: [{ value: 3 }] }],
      sort_by: 'close-date',
      sort_desc: true,
    },
  ],
};
