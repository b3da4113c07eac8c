import * as t from 'io-ts';
import { resultObject } from '../runtime/results.js';

// The workspaces tools' structured results: a space is the same object wherever it appears.

const Role = t.keyof({ admin: null, regular: null, light: null });
const Privacy = t.keyof({ open: null, closed: null });

export const OrganizationsResult = resultObject('Organizations', {
  organizations: t.array(
    resultObject(
      'Organization',
      {
        org_id: t.number,
        name: t.string,
        url: t.string,
        url_label: t.string,
        spaces: t.array(
          resultObject(
            'OrganizationSpace',
            { space_id: t.number, name: t.string, url: t.string },
            { privacy: Privacy, role: Role },
          ),
        ),
      },
      { user_limit: t.number },
    ),
  ),
});

export const SpaceResult = resultObject(
  'Space',
  {
    space_id: t.number,
    name: t.string,
    org_id: t.number,
    url: t.string,
    url_label: t.string,
    privacy: Privacy,
    type: t.string,
    auto_join: t.boolean,
    post_on_new_app: t.boolean,
    post_on_new_member: t.boolean,
  },
  {
    org_name: t.string,
    created_on: t.string,
    created_by: resultObject('SpaceCreator', { name: t.string }, { user_id: t.number }),
    role: Role,
    rights: t.array(t.string),
  },
);

export const CreatedSpaceResult = resultObject('CreatedSpace', {
  space_id: t.number,
  url: t.string,
  full_url: t.string,
});

export const UpdatedSpaceResult = resultObject('UpdatedSpace', { updated: t.literal(true), space_id: t.number });
