import { getAppTool, getAppViewsTool, listAppsTool } from './apps.js';
import { aggregateRecordsTool } from './aggregate-records.js';
import { batchCreateRecordsTool, batchUpdateRecordsTool } from './batch-records.js';
import { getBatchResultsTool } from './batch-results.js';
import {
  createRecordCommentTool,
  deleteRecordCommentTool,
  getRecordCommentTool,
  listRecordCommentsTool,
} from './comments.js';
import { createRecordTool } from './create-record.js';
import { deleteRecordTool, restoreRecordTool } from './delete-record.js';
import { filterRecordsTool } from './filter-records.js';
import { getRecordTool } from './get-record.js';
import { listRecordsTool } from './list-records.js';
import { findRelatableRecordsTool, getRelatedRecordsTool } from './related-records.js';
import { getRecordRevisionDeltaTool, getRecordRevisionsTool } from './revisions.js';
import { updateRecordTool } from './update-record.js';
import { uploadFilesTool } from './upload-files.js';

/** The records group, in the spec's order, then the comment tools, then the helper tools. */
export const recordsTools = [
  getRecordTool,
  listRecordsTool,
  createRecordTool,
  batchCreateRecordsTool,
  updateRecordTool,
  batchUpdateRecordsTool,
  deleteRecordTool,
  restoreRecordTool,
  filterRecordsTool,
  aggregateRecordsTool,
  getRelatedRecordsTool,
  findRelatableRecordsTool,
  getRecordRevisionsTool,
  createRecordCommentTool,
  getRecordCommentTool,
  listRecordCommentsTool,
  deleteRecordCommentTool,
  listAppsTool,
  getAppTool,
  getAppViewsTool,
  getRecordRevisionDeltaTool,
  uploadFilesTool,
  getBatchResultsTool,
] as const;
