// Files (attachments, images) and checklists: filtered only by presence (empty, not_empty).
import { withArticle } from '../../shared/articles.js';
import { E } from '../../shared/fp.js';
import { isValidDate, isValidDateTime, type ChecklistItem, type FieldValue, type FileValue } from '../values.js';
import { PRESENCE_MATCHES } from '../filter-model.js';
import { asList, isObject, positiveInt, type AttachmentInput, type ChecklistInput } from './input.js';
import { problem, type Validate, type ValueTypeSpec } from './spec.js';

export const validateChecklist: Validate = (_field, raw, name) => {
  const shape = 'array of {title, completed}; optional description, due, assignee, id';
  const items: ChecklistInput[] = [];
  for (const item of asList(raw)) {
    if (!isObject(item)) return problem(`${name} takes ${withArticle(shape)}.`, shape);
    if ('text' in item || 'checked' in item)
      return problem(`${name}: checklist items have the members title and completed, not text and checked.`, shape);
    const extra = Object.keys(item).filter(
      (k) => !['id', 'title', 'completed', 'description', 'due', 'assignee'].includes(k),
    );
    if (extra.length)
      return problem(
        `${name}: unknown item member ${extra.join(', ')}; members are title, completed, description, due, assignee, id.`,
        shape,
      );
    const title = item['title'];
    if (typeof title !== 'string' || !title.trim()) return problem(`${name}: each item needs a title (string).`, shape);
    const completed = item['completed'] ?? false;
    if (typeof completed !== 'boolean') return problem(`${name}: completed must be true or false.`, shape);
    const description = item['description'] ?? null;
    if (description !== null && typeof description !== 'string')
      return problem(`${name}: description must be a string.`, shape);
    const due = item['due'] ?? null;
    if (
      due !== null &&
      (typeof due !== 'string' ||
        !(isValidDate(due) || (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(due) && isValidDateTime(`${due}:00`))))
    )
      return problem(`${name}: due must be 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM'.`, shape);
    const assignee = item['assignee'] === undefined || item['assignee'] === null ? null : positiveInt(item['assignee']);
    if (assignee === undefined) return problem(`${name}: assignee must be a user id.`, shape);
    const id = item['id'] === undefined ? undefined : positiveInt(item['id']);
    if (item['id'] !== undefined && id === undefined)
      return problem(`${name}: id must be the id of an existing item (leave it out for a new item).`, shape);
    items.push({
      ...(id !== undefined ? { id } : {}),
      title: title.trim(),
      completed,
      description,
      due: due as string | null,
      assignee_user_id: assignee,
    });
  }
  return E.right({ kind: 'checklist', items });
};

/** attachment, image_attachment and multi_image: file ids, or URLs the use case uploads first. */
export const validateAttachment: Validate = (_field, raw, name) => {
  const shape = 'array of file ids or http(s) URLs';
  const files: AttachmentInput[] = [];
  for (const item of asList(raw)) {
    const id = positiveInt(item);
    if (id !== undefined) files.push({ file_id: id });
    else if (typeof item === 'string' && /^https?:\/\//i.test(item.trim())) files.push({ url: item.trim() });
    else
      return problem(
        `${name} takes ${withArticle(shape)} (URLs are uploaded automatically; records_uploadFiles gives file ids).`,
        shape,
      );
  }
  return E.right({ kind: 'attachment', files });
};

const asJson = (v: FieldValue): string => JSON.stringify(v);

export const FILE: ValueTypeSpec = {
  matchTypes: () => PRESENCE_MATCHES,
  compile: () => () => true,
  sortKey: asJson,
  format: (v) => (v as readonly FileValue[]).map((f) => `${f.name} (file ${f.file_id})`).join(', '),
  operations: ['count'],
  sample: () => undefined,
  column: 'other',
};

export const CHECKLIST: ValueTypeSpec = {
  matchTypes: () => PRESENCE_MATCHES,
  compile:
    <R>(_f: unknown, get: (r: R) => FieldValue | undefined) =>
    (r: R) => {
      const v = get(r) as readonly ChecklistItem[] | undefined;
      return v !== undefined && v.length > 0;
    },
  sortKey: asJson,
  format: (v) => {
    const items = v as readonly ChecklistItem[];
    return `${items.filter((i) => i.completed).length}/${items.length} done: ${items.map((i) => `${i.completed ? '[x]' : '[ ]'} ${i.title}`).join('; ')}`;
  },
  operations: ['count'],
  sample: () => undefined,
  column: 'other',
};
