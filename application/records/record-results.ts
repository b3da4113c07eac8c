import * as t from 'io-ts';
import { destructive, nullable, resultObject, Truncated, UserRef } from '../runtime/results.js';

// The records tools' structured results, one shape per concept: a record is the same object in every tool
// (verbose adds its revision, times, app and each field's field_type and `values`), and so are a field, a
// comment and a person (UserRef).

/** A field of a record: `value` in the compact form, `field_type` and `values` with verbose. */
const RecordField = resultObject(
  'RecordField',
  { field_id: t.number, external_id: t.string, label: t.string, type: t.string },
  { value: t.unknown, field_type: t.string, values: t.array(t.unknown) },
);

export const RecordResult = resultObject(
  'Record',
  {
    record_id: t.number,
    app_record_id: t.number,
    app_id: t.number,
    title: t.string,
    record_url: t.string,
    created_by: UserRef,
    created_on: t.string,
    fields: t.array(RecordField),
  },
  {
    revision: t.number,
    created_on_utc: t.string,
    last_modified_on: t.string,
    last_modified_on_utc: t.string,
    deleted_on: nullable(t.string),
    deleted_on_utc: nullable(t.string),
    app: resultObject('RecordApp', {
      app_id: t.number,
      icon: t.string,
      name: t.string,
      record_name: t.string,
      workspace_id: t.number,
    }),
  },
);

/** listRecords and filterRecords: a page of records and the cursor of the next, or only the count. */
export const RecordPageResult = resultObject(
  'RecordList',
  { total: t.number },
  { cursor: nullable(t.string), records: t.array(RecordResult), count_only: t.literal(true), truncated: Truncated },
);

/**
 * The spec's compact related-record shape: `created_by` one string (name and user id), `fields` an object
 * mapping each field's label to its formatted value. `record_url` only in getRelatedRecords.
 */
const relatedMembers = {
  record_id: t.number,
  app_record_id: t.number,
  title: t.string,
  created_by: t.string,
  created_on: t.string,
  fields: t.record(t.string, t.string),
};

/** getRelatedRecords. */
export const RelatedRecordsResult = resultObject(
  'RelatedRecords',
  { total: t.number, records: t.array(resultObject('RelatedRecord', { ...relatedMembers, record_url: t.string })) },
  { truncated: Truncated, total_is_lower_bound: t.boolean },
);

/** findRelatableRecords: the related-record shape without record_url. */
export const RelatableRecordsResult = resultObject(
  'RelatableRecords',
  { total: t.number, records: t.array(resultObject('RelatableRecord', relatedMembers)) },
  { truncated: Truncated },
);

/** createRecord and updateRecord: the record's id (and link), or the whole record with id_only false. */
export const WrittenRecordResult = t.union([
  RecordResult,
  resultObject('WrittenRecord', { record_id: t.number }, { record_url: t.string, revision: t.number }),
]);

export const DeletedRecordResult = destructive(
  resultObject('DeletedRecord', { deleted: t.literal(true), record_id: t.number }),
);

const BatchItemResult = resultObject(
  'BatchItem',
  { index: t.number, success: t.boolean },
  { record_id: t.number, record_url: t.string, error: t.string, fix: t.string },
);
const BatchCounts = { total: t.number, successful: t.number, failed: t.number, items: t.array(BatchItemResult) };
/** A batch answer: batch_id names where records_getBatchResults reads the results back (an hour). */
const BatchResult = resultObject('Batch', BatchCounts, { batch_id: t.string, truncated: Truncated });
/** A page of a kept batch (records_getBatchResults). */
export const StoredBatchResult = resultObject(
  'StoredBatch',
  { ...BatchCounts, batch_id: t.string, offset: t.number },
  { truncated: Truncated },
);
export { BatchResult };

const FieldDefinition = resultObject(
  'FieldDefinition',
  {
    field_id: t.number,
    external_id: t.string,
    label: t.string,
    field_type: t.string,
    type: t.string,
    required: t.boolean,
  },
  {
    description: t.string,
    options: t.array(
      resultObject('FieldOption', { id: t.number, text: t.string }, { color: t.string, means_completed: t.boolean }),
    ),
    referenced_app_ids: t.array(t.number),
    currencies: t.array(t.string),
  },
);

export const AppResult = resultObject('App', {
  app_id: t.number,
  name: t.string,
  item_name: t.string,
  description: t.string,
  workspace_id: t.number,
  fields: t.array(FieldDefinition),
});

/** listApps: each app's `id` (the spec's name), and how many records it holds when they were counted. */
export const AppsResult = resultObject('Apps', {
  apps: t.array(
    resultObject(
      'AppSummary',
      {
        id: t.number,
        name: t.string,
        description: t.string,
        workspace_id: t.number,
        item_name: t.string,
      },
      { record_count: t.number },
    ),
  ),
});

export const ViewsResult = resultObject('Views', {
  views: t.array(
    resultObject('View', {
      view_id: t.number,
      name: t.string,
      filters: t.array(t.record(t.string, t.unknown)),
      sort_by: nullable(t.string),
      sort_desc: t.boolean,
    }),
  ),
});

const Aggregations = t.record(t.string, t.record(t.string, nullable(t.union([t.number, t.string]))));

export const AggregationResult = resultObject(
  'Aggregate',
  { total_items: t.number },
  {
    aggregations: Aggregations,
    totals: Aggregations,
    group_count: t.number,
    offset: t.number,
    groups: t.array(
      resultObject('AggregateGroup', {
        group: t.string,
        key: nullable(t.union([t.string, t.number])),
        count: t.number,
        aggregations: Aggregations,
      }),
    ),
  },
);

export const RevisionsResult = resultObject('Revisions', {
  revisions: t.array(
    resultObject('Revision', {
      revision: t.number,
      type: t.string,
      created_by: UserRef,
      created_on: t.string,
      record_id: t.number,
      changes: t.array(resultObject('RevisionChange', { field_id: t.number, label: t.string })),
    }),
  ),
});

export const RevisionDeltaResult = resultObject('RevisionDelta', {
  record_id: t.number,
  revision_from: t.number,
  revision_to: t.number,
  changes: t.array(
    resultObject('FieldChange', {
      field_id: t.number,
      external_id: t.string,
      label: t.string,
      type: t.string,
      from: t.unknown,
      to: t.unknown,
    }),
  ),
});

const FileRef = resultObject(
  'RecordFile',
  { file_id: t.number, name: t.string },
  { mimetype: t.string, size: t.number, link: t.string },
);

/** A comment in the spec's shape: the record it is on as `ref`, its author as `user` and `created_by`. */
export const CommentResult = resultObject('Comment', {
  comment_id: t.number,
  created_on: t.string,
  files: t.array(FileRef),
  ref: resultObject('CommentRef', { type: t.literal('record'), id: t.number }),
  value: t.string,
  user: UserRef,
  created_by: UserRef,
});

export const CommentsResult = resultObject(
  'Comments',
  { cursor: nullable(t.string), comments: t.array(CommentResult), total: t.number },
  { truncated: Truncated },
);

/** The spec's empty object. */
export const DeletedCommentResult = destructive(resultObject('DeletedComment', {}));

export const UploadedFilesResult = resultObject('UploadedFiles', { files: t.array(FileRef) });
