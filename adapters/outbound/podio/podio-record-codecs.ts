import * as t from 'io-ts';

// Podio's item, app, view, revision, comment, embed and file answers as the records adapters read them.
// Each codec insists on what the gateway cannot do without (the ids that identify an object and the lists
// it walks), so that a changed answer is an "unexpected shape" error naming the place instead of a record 0.
// Every other member stays as Podio sent it (the codecs keep unknown members) and is read by the typed
// accessors of podio-record-json.ts in podio-record-mapping.ts, where a missing label is an empty string.

/** An object with the given members checked and every other member kept as it came. */
const withMembers = <P extends t.Props>(props: P, name: string) =>
  t.intersection([t.type(props), t.UnknownRecord], name);

/** A field of an item (`fields[]` of models/item): the values are a list of objects. */
export const PodioItemField = withMembers(
  { field_id: t.number, type: t.string, values: t.array(t.UnknownRecord) },
  'PodioItemField',
);

/** An item (developers.podio.com/doc/items/get-item-22360). */
export const PodioItem = withMembers(
  { item_id: t.number, app: withMembers({ app_id: t.number }, 'PodioItemApp'), fields: t.array(PodioItemField) },
  'PodioItem',
);
export type PodioItem = t.TypeOf<typeof PodioItem>;

/** `POST /item/app/{app_id}/filter/[{view_id}/]`: `{total, filtered, items}`. */
export const PodioFilterAnswer = t.intersection(
  [t.type({ items: t.array(PodioItem) }), t.partial({ total: t.number, filtered: t.number })],
  'PodioFilterAnswer',
);

/** `POST /item/app/{app_id}/`: the new item's id (its title and more are not read). */
export const PodioCreatedItem = withMembers({ item_id: t.number }, 'PodioCreatedItem');

/** A field of an app definition (`GET /app/{app_id}`): `config.settings` is read per type. */
export const PodioAppField = withMembers({ field_id: t.number, type: t.string }, 'PodioAppField');

/** An app definition (developers.podio.com/doc/applications/get-app-22349). */
export const PodioApp = withMembers({ app_id: t.number, fields: t.array(PodioAppField) }, 'PodioApp');

/** An entry of `GET /app/v2/` or `GET /app/space/{space_id}/`. */
export const PodioAppEntry = withMembers({ app_id: t.number }, 'PodioAppEntry');

/** A saved view (`GET /view/app/{app_id}/[{view_id}]`): `filters: [{key, values}]`. */
export const PodioView = withMembers(
  { view_id: t.number, filters: t.array(withMembers({ key: t.union([t.string, t.number]) }, 'PodioViewFilter')) },
  'PodioView',
);

/** An entry of `GET /item/{item_id}/revision/`. */
export const PodioRevision = withMembers({ revision: t.number }, 'PodioRevision');

/** An entry of `GET /item/{item_id}/revision/{from}/{to}`: one field's values before and after. */
export const PodioFieldDelta = withMembers(
  { field_id: t.number, type: t.string, from: t.array(t.UnknownRecord), to: t.array(t.UnknownRecord) },
  'PodioFieldDelta',
);

/** A group of `GET /item/{item_id}/reference/`: the referencing items of one app. */
export const PodioReferenceGroup = withMembers(
  {
    app: withMembers({ app_id: t.number }, 'PodioReferenceApp'),
    items: t.array(withMembers({ item_id: t.number }, 'PodioReferenceItem')),
  },
  'PodioReferenceGroup',
);

/** An entry of `GET /item/field/{field_id}/find` (an item's mini view). */
export const PodioRelatable = withMembers({ item_id: t.number, title: t.string }, 'PodioRelatable');

/** A comment (developers.podio.com/doc/comments/get-a-comment-22345). */
export const PodioComment = withMembers({ comment_id: t.number }, 'PodioComment');

/** An item read only for its number of comments. */
export const PodioCommentCount = t.partial({ comment_count: t.number }, 'PodioCommentCount');

/** `GET /item/app/{app_id}/count` (developers.podio.com/doc/items/get-item-count-34819997). */
export const PodioItemCount = withMembers({ count: t.number }, 'PodioItemCount');

/** `POST /embed/` (developers.podio.com/doc/embeds/add-an-embed-726483). */
export const PodioEmbed = withMembers({ embed_id: t.number }, 'PodioEmbed');

/** `POST /file/v2/` (developers.podio.com/doc/files/upload-file-1004361). */
export const PodioUploadedFile = withMembers({ file_id: t.number }, 'PodioUploadedFile');
