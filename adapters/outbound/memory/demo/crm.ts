import type { PropertyDefinition } from '../../../../domain/crm/property.js';

const text = (name: string, label: string, extra: Partial<PropertyDefinition> = {}): PropertyDefinition => ({
  name,
  label,
  type: 'string',
  fieldType: 'text',
  groupName: 'contactinformation',
  ...extra,
});

/** Contact properties as a fresh HubSpot portal has them (a representative subset). */
export const contactPropertyDefinitions: readonly PropertyDefinition[] = [
  text('firstname', 'First Name'),
  text('lastname', 'Last Name'),
  text('email', 'Email'),
  text('hs_additional_emails', 'Additional email addresses', { fieldType: 'textarea' }),
  { name: 'phone', label: 'Phone Number', type: 'string', fieldType: 'phonenumber' },
  { name: 'mobilephone', label: 'Mobile Phone Number', type: 'string', fieldType: 'phonenumber' },
  { name: 'fax', label: 'Fax Number', type: 'string', fieldType: 'phonenumber' },
  text('company', 'Company Name'),
  text('jobtitle', 'Job Title'),
  text('website', 'Website URL'),
  text('address', 'Street Address'),
  text('city', 'City'),
  text('state', 'State/Region'),
  text('zip', 'Postal Code'),
  text('country', 'Country/Region'),
  {
    name: 'lifecyclestage',
    label: 'Lifecycle Stage',
    type: 'enumeration',
    fieldType: 'radio',
    options: [
      { value: 'subscriber', label: 'Subscriber' },
      { value: 'lead', label: 'Lead' },
      { value: 'marketingqualifiedlead', label: 'Marketing Qualified Lead' },
      { value: 'salesqualifiedlead', label: 'Sales Qualified Lead' },
      { value: 'opportunity', label: 'Opportunity' },
      { value: 'customer', label: 'Customer' },
      { value: 'evangelist', label: 'Evangelist' },
      { value: 'other', label: 'Other' },
    ],
  },
  {
    name: 'hs_lead_status',
    label: 'Lead Status',
    type: 'enumeration',
    fieldType: 'radio',
    options: [
      { value: 'NEW', label: 'New' },
      { value: 'OPEN', label: 'Open' },
      { value: 'IN_PROGRESS', label: 'In Progress' },
      { value: 'OPEN_DEAL', label: 'Open Deal' },
      { value: 'UNQUALIFIED', label: 'Unqualified' },
      { value: 'ATTEMPTED_TO_CONTACT', label: 'Attempted to Contact' },
      { value: 'CONNECTED', label: 'Connected' },
      { value: 'BAD_TIMING', label: 'Bad Timing' },
    ],
  },
  {
    name: 'hs_buying_role',
    label: 'Buying Role',
    type: 'enumeration',
    fieldType: 'checkbox',
    options: [
      { value: 'BUDGET_HOLDER', label: 'Budget Holder' },
      { value: 'CHAMPION', label: 'Champion' },
      { value: 'DECISION_MAKER', label: 'Decision Maker' },
      { value: 'END_USER', label: 'End User' },
      { value: 'INFLUENCER', label: 'Influencer' },
    ],
  },
  { name: 'num_notes', label: 'Number of Sales Activities', type: 'number', fieldType: 'number' },
  { name: 'hs_email_optout', label: 'Unsubscribed from all email', type: 'bool', fieldType: 'booleancheckbox' },
  { name: 'date_of_birth', label: 'Date of birth', type: 'date', fieldType: 'date' },
  { name: 'associatedcompanyid', label: 'Primary Associated Company ID', type: 'number', fieldType: 'number' },
  { name: 'createdate', label: 'Create Date', type: 'datetime', fieldType: 'date', readOnly: true },
  { name: 'lastmodifieddate', label: 'Last Modified Date', type: 'datetime', fieldType: 'date', readOnly: true },
  { name: 'hs_object_id', label: 'Record ID', type: 'number', fieldType: 'number', readOnly: true },
];

export const companyPropertyDefinitions: readonly PropertyDefinition[] = [
  text('name', 'Company name', { groupName: 'companyinformation' }),
  text('domain', 'Company Domain Name', { groupName: 'companyinformation' }),
  text('city', 'City', { groupName: 'companyinformation' }),
  text('state', 'State/Region', { groupName: 'companyinformation' }),
  text('phone', 'Phone Number', { groupName: 'companyinformation', fieldType: 'phonenumber' }),
  {
    name: 'industry',
    label: 'Industry',
    type: 'enumeration',
    fieldType: 'select',
    options: [
      { value: 'REAL_ESTATE', label: 'Real Estate' },
      { value: 'CONSTRUCTION', label: 'Construction' },
      { value: 'FINANCIAL_SERVICES', label: 'Financial Services' },
      { value: 'COMPUTER_SOFTWARE', label: 'Computer Software' },
    ],
  },
  { name: 'numberofemployees', label: 'Number of Employees', type: 'number', fieldType: 'number' },
  { name: 'createdate', label: 'Create Date', type: 'datetime', fieldType: 'date', readOnly: true },
  { name: 'hs_object_id', label: 'Record ID', type: 'number', fieldType: 'number', readOnly: true },
];

export interface DemoCompany {
  readonly name: string;
  readonly domain: string;
  readonly city: string;
  readonly state: string;
  readonly industry: string;
}

export const demoCompanies: readonly DemoCompany[] = [
  { name: 'Rosegold Realty', domain: 'rosegoldrealty.com', city: 'Franklin Square', state: 'NY', industry: 'REAL_ESTATE' },
  { name: 'Globe Builders', domain: 'globebuilders.com', city: 'Buckeye', state: 'AZ', industry: 'CONSTRUCTION' },
  { name: 'Harbor Lending', domain: 'harborlending.com', city: 'Tampa', state: 'FL', industry: 'FINANCIAL_SERVICES' },
];

/** Demo contacts, created in this order (ids 101, 102, ...), one day apart from 2026-01-05. */
export const demoContacts: readonly Readonly<Record<string, string>>[] = [
  { firstname: 'Maria', lastname: 'Alvarez', email: 'maria.alvarez@rosegoldrealty.com', phone: '+1 516 555 0101', company: 'Rosegold Realty', jobtitle: 'Broker', city: 'Franklin Square', state: 'NY', lifecyclestage: 'customer', hs_lead_status: 'CONNECTED' },
  { firstname: 'James', lastname: 'Okafor', email: 'james.okafor@globebuilders.com', phone: '+1 623 555 0102', company: 'Globe Builders', jobtitle: 'Project Manager', city: 'Buckeye', state: 'AZ', lifecyclestage: 'opportunity', hs_lead_status: 'OPEN_DEAL' },
  { firstname: 'Priya', lastname: 'Natarajan', email: 'priya@harborlending.com', phone: '+1 813 555 0103', company: 'Harbor Lending', jobtitle: 'Loan Officer', city: 'Tampa', state: 'FL', lifecyclestage: 'salesqualifiedlead', hs_lead_status: 'IN_PROGRESS' },
  { firstname: 'Tom', lastname: 'Becker', email: 'tom.becker@example.com', phone: '+1 312 555 0104', city: 'Chicago', state: 'IL', lifecyclestage: 'lead', hs_lead_status: 'NEW' },
  { firstname: 'Aisha', lastname: 'Rahman', email: 'aisha.rahman@example.org', mobilephone: '+1 206 555 0105', city: 'Seattle', state: 'WA', lifecyclestage: 'lead', hs_lead_status: 'ATTEMPTED_TO_CONTACT' },
  { firstname: 'Liam', lastname: 'Walsh', email: 'liam.walsh@rosegoldrealty.com', company: 'Rosegold Realty', jobtitle: 'Agent', city: 'Hempstead', state: 'NY', lifecyclestage: 'customer', hs_lead_status: 'CONNECTED' },
  { firstname: 'Chen', lastname: 'Wei', email: 'chen.wei@example.net', phone: '+1 415 555 0107', city: 'San Francisco', state: 'CA', lifecyclestage: 'marketingqualifiedlead' },
  { firstname: 'Sofia', lastname: 'Rossi', email: 'sofia.rossi@globebuilders.com', company: 'Globe Builders', jobtitle: 'Estimator', city: 'Phoenix', state: 'AZ', lifecyclestage: 'opportunity', hs_lead_status: 'OPEN' },
  { firstname: 'Daniel', lastname: 'Kim', email: 'daniel.kim@example.com', phone: '+1 646 555 0109', city: 'New York', state: 'NY', lifecyclestage: 'subscriber' },
  { firstname: 'Grace', lastname: 'Thompson', email: 'grace.thompson@harborlending.com', company: 'Harbor Lending', jobtitle: 'Underwriter', city: 'Tampa', state: 'FL', lifecyclestage: 'customer', hs_lead_status: 'CONNECTED' },
  { firstname: 'Mateo', lastname: 'Silva', email: 'mateo.silva@example.org', phone: '+1 305 555 0111', city: 'Miami', state: 'FL', lifecyclestage: 'lead', hs_lead_status: 'UNQUALIFIED' },
  { firstname: 'Hannah', lastname: 'Müller', email: 'hannah.mueller@example.de', city: 'Austin', state: 'TX', lifecyclestage: 'evangelist' },
];
