import type { JsonSchema } from '../../../application/runtime/json-schema.js';
import { enumType, foldedNotes, withNotes, type SchemaNode } from './openai-schema.js';

/** Thrown while converting when a node has no form in Gemini's OpenAPI subset. */
class NotExpressible extends Error {}

/**
 * The keywords of Gemini's `Schema` (a select subset of the OpenAPI 3.0 schema object) that we emit.
 * `additionalProperties`, `const`, `default`, `examples`, `oneOf`, `allOf` and `$ref` are not among them.
 */
export const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'anyOf',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
]);

export const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);

const KEEP = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum']);

const geminiNode = (s: JsonSchema): SchemaNode => {
  const out: SchemaNode = {};
  const notes: string[] = [];
  if (s.anyOf) {
    const nonNull = s.anyOf.filter((m) => m.type !== 'null');
    if (nonNull.length === 1) {
      Object.assign(out, geminiNode({ ...nonNull[0]!, description: s.description ?? nonNull[0]!.description }), {
        nullable: true,
      });
      return out;
    }
    out['anyOf'] = nonNull.map(geminiNode);
    if (nonNull.length < s.anyOf.length) out['nullable'] = true;
  } else {
    let values: readonly unknown[] | undefined = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
    const type = s.type ?? (values ? enumType(values) : undefined);
    if (type === undefined || type === 'null') throw new NotExpressible(`no type`);
    // Gemini enums are lists of strings; for other types the allowed values go into the description.
    if (values && type !== 'string') {
      notes.push(
        values.length === 1
          ? `Must be ${JSON.stringify(values[0])}.`
          : `One of ${values.map((v) => JSON.stringify(v)).join(', ')}.`,
      );
      values = undefined;
    }
    out['type'] = type.toUpperCase();
    if (values) out['enum'] = values.map(String);
    if (type === 'object') {
      if (s.additionalProperties !== undefined && s.additionalProperties !== false)
        throw new NotExpressible('open dictionary');
      const properties = Object.entries(s.properties ?? {});
      if (properties.length === 0) throw new NotExpressible('object without properties');
      out['properties'] = Object.fromEntries(properties.map(([k, v]) => [k, geminiNode(v)]));
      if (s.required?.length) out['required'] = [...s.required];
    }
    if (type === 'array' && s.items) out['items'] = geminiNode(s.items);
    if (type === 'integer' && s.format && ['int32', 'int64'].includes(s.format)) out['format'] = s.format;
    if (type === 'number' && s.format && ['float', 'double'].includes(s.format)) out['format'] = s.format;
    if (type === 'string' && s.format === 'date-time') out['format'] = 'date-time';
  }
  for (const k of KEEP) {
    const v = (s as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  const description = withNotes(s.description, [
    ...foldedNotes(s, (k) => KEEP.has(k) || (k === 'format' && out['format'] !== undefined)),
    ...notes,
  ]);
  if (description) out['description'] = description;
  return out;
};

/**
 * A tool's parameters as a Gemini `FunctionDeclaration` field: `parameters` in the OpenAPI subset when it
 * can express them, else `parametersJsonSchema` (plain JSON Schema, which Gemini also takes), and nothing
 * for a tool without parameters.
 */
export const toGeminiParameters = (
  schema: JsonSchema,
): { parameters: SchemaNode } | { parametersJsonSchema: JsonSchema } | Record<string, never> => {
  if (!schema.properties || Object.keys(schema.properties).length === 0) return {};
  try {
    return { parameters: geminiNode(schema) };
  } catch (e) {
    if (e instanceof NotExpressible) return { parametersJsonSchema: schema };
    throw e;
  }
};
