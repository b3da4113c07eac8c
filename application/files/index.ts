import { copyItemTool } from './copy-item.js';
import { createFolderTool } from './create-folder.js';
import { createShareTool } from './create-share.js';
import { deleteItemTool } from './delete-item.js';
import { deleteShareTool } from './delete-share.js';
import { getDownloadUrlTool } from './get-download-url.js';
import { getItemTool } from './get-item.js';
import { getShareTool } from './get-share.js';
import { getTopLevelFoldersTool } from './get-top-level-folders.js';
import { getUploadUrlTool } from './get-upload-url.js';
import { listChildrenTool } from './list-children.js';
import { listSharesTool } from './list-shares.js';
import { moveItemTool } from './move-item.js';
import { readFileTool } from './read-file.js';
import { searchItemsTool } from './search-items.js';
import { sendShareNotificationTool } from './send-share-notification.js';
import { updateItemTool } from './update-item.js';
import { updateShareTool } from './update-share.js';
import { writeFileTool } from './write-file.js';

/** The files group: item tools first, then share tools. */
export const filesTools = [
  getItemTool,
  getTopLevelFoldersTool,
  listChildrenTool,
  createFolderTool,
  updateItemTool,
  deleteItemTool,
  copyItemTool,
  moveItemTool,
  searchItemsTool,
  getDownloadUrlTool,
  getUploadUrlTool,
  readFileTool,
  writeFileTool,
  getShareTool,
  listSharesTool,
  createShareTool,
  updateShareTool,
  deleteShareTool,
  sendShareNotificationTool,
] as const;
