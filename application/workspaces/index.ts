import { addMemberToSpaceTool } from './add-member-to-space.js';
import { createSpaceTool } from './create-space.js';
import { deleteSpaceTool } from './delete-space.js';
import { endSpaceMembershipsTool } from './end-space-memberships.js';
import { getOrganizationsTool } from './get-organizations.js';
import { getSpaceMembersTool } from './get-space-members.js';
import { getSpaceTool } from './get-space.js';
import { updateSpaceMembershipsTool } from './update-space-memberships.js';
import { updateSpaceTool } from './update-space.js';

/** The workspaces group: the space and membership tools, then the helper tool. */
export const workspacesTools = [
  addMemberToSpaceTool,
  createSpaceTool,
  endSpaceMembershipsTool,
  getSpaceTool,
  getSpaceMembersTool,
  updateSpaceTool,
  updateSpaceMembershipsTool,
  deleteSpaceTool,
  getOrganizationsTool,
] as const;
