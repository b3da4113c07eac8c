// A tool's JSON Schema read for people: a type label and constraints per parameter, the parameter rows
// (nested objects and arrays of objects flattened to dotted paths), and example request bodies.

/** The parts of a JSON Schema the page reads. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly oneOf?: readonly JsonSchema[];
  readonly anyOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly const?: unknown;
  readonly examples?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly format?: string;
}

export const typeLabel = (s: JsonSchema | undefined): string => {
  if (!s || typeof s !== 'object') return 'any';
  if (s.enum) return 'enum';
  const alts = s.oneOf || s.anyOf;
  if (alts) return alts.map(typeLabel).join(' | ');
  const t = Array.isArray(s.type) ? s.type.join(' | ') : (s.type as string | undefined);
  if (t === 'array') return 'array of ' + typeLabel(s.items);
  return t || 'any';
};

/** Label and value pairs, such as ['max ', '100']. */
export const constraints = (s: JsonSchema): [string, string][] => {
  const out: [string, string][] = [];
  if (s.enum) out.push(['one of ', s.enum.map((v) => JSON.stringify(v)).join(', ')]);
  if (s.default !== undefined) out.push(['default ', JSON.stringify(s.default)]);
  if (s.minimum !== undefined) out.push(['min ', String(s.minimum)]);
  if (s.maximum !== undefined) out.push(['max ', String(s.maximum)]);
  if (s.minLength !== undefined && s.minLength > 1) out.push(['min length ', String(s.minLength)]);
  if (s.maxLength !== undefined) out.push(['max length ', String(s.maxLength)]);
  if (s.minItems !== undefined) out.push(['min items ', String(s.minItems)]);
  if (s.maxItems !== undefined) out.push(['max items ', String(s.maxItems)]);
  if (s.pattern !== undefined) out.push(['pattern ', s.pattern]);
  if (s.format !== undefined) out.push(['format ', s.format]);
  return out;
};

export interface ParamRow {
  readonly path: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
}

export const paramRows = (
  schema: JsonSchema | undefined,
  prefix: string,
  rows: ParamRow[],
  depth: number,
): ParamRow[] => {
  const props = (schema && schema.properties) || {};
  const required = (schema && schema.required) || [];
  Object.keys(props).forEach((key) => {
    const s = props[key] || {};
    const path = prefix ? prefix + '.' + key : key;
    rows.push({ path, schema: s, required: required.indexOf(key) >= 0 });
    if (depth > 5) return;
    if (s.properties) paramRows(s, path, rows, depth + 1);
    else if (s.type === 'array' && s.items && s.items.properties) paramRows(s.items, path + '[]', rows, depth + 1);
  });
  return rows;
};

const example = (s: JsonSchema | undefined, all: boolean, depth: number): unknown => {
  if (!s || typeof s !== 'object' || depth > 6) return null;
  if (s.examples && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (s.enum && s.enum.length) return s.enum[0];
  const alts = s.oneOf || s.anyOf;
  if (alts && alts.length) return example(alts[0], all, depth + 1);
  let type = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null')[0] : (s.type as string | undefined);
  if (!type && s.properties) type = 'object';
  switch (type) {
    case 'object': {
      const obj: Record<string, unknown> = {};
      const required = s.required || [];
      const properties = s.properties || {};
      Object.keys(properties).forEach((key) => {
        if (all || required.indexOf(key) >= 0) obj[key] = example(properties[key], all, depth + 1);
      });
      return obj;
    }
    case 'array':
      return s.items ? [example(s.items, all, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      if (s.format === 'date') return '2026-01-31';
      if (s.format === 'date-time') return '2026-01-31T12:00:00Z';
      if (s.format === 'email') return 'name@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
      if (s.pattern === '^[0-9]+$') return '123';
      return '';
    default:
      return null;
  }
};

/** A request body for the schema: the required parameters, or every one (`all`). */
export const exampleBody = (schema: JsonSchema, all: boolean): string =>
  JSON.stringify(example(schema, all, 0) || {}, null, 2);
