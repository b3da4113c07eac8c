import * as t from 'io-ts';
import { OpenObjectType } from './results.js';

/** The subset of JSON Schema (2020-12) the gateway emits for tool parameters. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly (string | number)[];
  const?: string | number | boolean;
  anyOf?: JsonSchema[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
  examples?: unknown[];
}

/** A codec that knows its own JSON Schema and how to name what it expects (used by custom codecs). */
export class SchemaType<A, O = A, I = unknown> extends t.Type<A, O, I> {
  readonly _tag = 'SchemaType' as const;
  constructor(
    name: string,
    is: t.Is<A>,
    validate: t.Validate<I, A>,
    encode: t.Encode<A, O>,
    readonly schema: JsonSchema,
  ) {
    super(name, is, validate, encode);
  }
}

/** A codec with a description for the model (and optionally a default shown in the schema). */
export class DescribedType<C extends t.Mixed> extends t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  readonly _tag = 'DescribedType' as const;
  constructor(
    readonly inner: C,
    readonly description: string,
    readonly defaultValue?: t.TypeOf<C>,
  ) {
    super(
      inner.name,
      inner.is,
      defaultValue === undefined
        ? (u, c) => inner.validate(u, c)
        : (u, c) => (u === undefined ? t.success(defaultValue) : inner.validate(u, c)),
      inner.encode,
    );
  }
}

/**
 * A described codec with a default: decoding an absent value gives the default, so a use case receives
 * it and the parameter is no longer optional in the decoded type.
 */
export class DefaultedType<C extends t.Mixed> extends DescribedType<C> {
  declare readonly defaultValue: t.TypeOf<C>;
  readonly hasDefault = true as const;
}

/** How a default reads in a description: lists joined with commas, strings without quotes. */
const defaultInWords = (value: unknown): string =>
  Array.isArray(value)
    ? value.map(defaultInWords).join(', ')
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** The description followed by "Default: X.", the one place a parameter's default is written. */
const withDefaultSentence = (description: string, value: unknown): string => {
  const text = description.trim();
  return `${text}${/[.!?)]$/.test(text) ? '' : '.'} Default: ${defaultInWords(value)}.`;
};

/** An array with at most `maxItems` members (schema `maxItems`); still an io-ts ArrayType, so error paths read `name[3]`. */
export class BoundedArrayType<C extends t.Mixed> extends t.ArrayType<C, t.TypeOf<C>[], t.OutputOf<C>[], unknown> {
  constructor(
    item: C,
    readonly maxItems: number,
  ) {
    const base = t.array(item);
    super(
      `Array<${item.name}>(at most ${maxItems})`,
      (u): u is t.TypeOf<C>[] => base.is(u) && u.length <= maxItems,
      (u, c) => (Array.isArray(u) && u.length > maxItems ? t.failure(u, c) : base.validate(u, c)),
      base.encode,
      item,
    );
  }
}

/**
 * Attaches a description for the model to a codec. With a default, an absent value decodes to it, the
 * schema shows it as `default`, and the description ends with "Default: X." (do not write it by hand).
 */
export function described<C extends t.Mixed>(codec: C, description: string): DescribedType<C>;
export function described<C extends t.Mixed>(
  codec: C,
  description: string,
  defaultValue: t.TypeOf<C>,
): DefaultedType<C>;
export function described<C extends t.Mixed>(
  codec: C,
  description: string,
  defaultValue?: t.TypeOf<C>,
): DescribedType<C> {
  return defaultValue === undefined
    ? new DescribedType(codec, description)
    : new DefaultedType(codec, withDefaultSentence(description, defaultValue), defaultValue);
}

type AnyCodec = t.Mixed & { _tag?: string };

/** Derives JSON Schema from an io-ts codec. Throws for a codec it cannot express: that is a bug in a tool declaration. */
export const toJsonSchema = (codec: t.Mixed): JsonSchema => {
  const c = codec as AnyCodec;
  if (c instanceof DescribedType) {
    const inner = toJsonSchema(c.inner);
    return {
      ...inner,
      description: c.description,
      ...(c.defaultValue !== undefined ? { default: c.defaultValue } : {}),
    };
  }
  if (c instanceof SchemaType) return { ...c.schema };
  if (c instanceof OpenObjectType) {
    const { additionalProperties: _closed, ...open } = toJsonSchema(c.inner);
    return open;
  }
  if (c instanceof t.UnknownType) return {};
  if (c instanceof t.StringType) return { type: 'string' };
  if (c instanceof t.NumberType) return { type: 'number' };
  if (c instanceof t.BooleanType) return { type: 'boolean' };
  if (c instanceof t.NullType) return { type: 'null' };
  if (c instanceof t.LiteralType) return { const: c.value as string | number | boolean };
  if (c instanceof t.KeyofType) return { type: 'string', enum: Object.keys(c.keys) };
  if (c instanceof t.RefinementType || c instanceof t.ReadonlyType) return toJsonSchema(c.type as t.Mixed);
  if (c instanceof BoundedArrayType)
    return { type: 'array', items: toJsonSchema(c.type as t.Mixed), maxItems: c.maxItems };
  if (c instanceof t.ArrayType || c instanceof t.ReadonlyArrayType)
    return { type: 'array', items: toJsonSchema(c.type as t.Mixed) };
  if (c instanceof t.ExactType) return toJsonSchema(c.type as t.Mixed);
  if (c instanceof t.InterfaceType) return objectSchema(c.props as t.Props, Object.keys(c.props as t.Props));
  if (c instanceof t.PartialType) return objectSchema(c.props as t.Props, []);
  if (c instanceof t.IntersectionType) {
    const parts = (c.types as t.Mixed[]).map(toJsonSchema);
    if (parts.every((p) => p.type === 'object')) {
      return {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => p.properties)),
        required: parts.flatMap((p) => p.required ?? []),
        additionalProperties: false,
      };
    }
  }
  if (c instanceof t.UnionType) {
    const members = (c.types as t.Mixed[]).map(toJsonSchema);
    if (members.every((m) => m.const !== undefined)) {
      return { enum: members.map((m) => m.const as string | number) };
    }
    // One of several objects is itself an object (MCP wants an outputSchema of type object).
    return members.every((m) => m.type === 'object') ? { type: 'object', anyOf: members } : { anyOf: members };
  }
  if (c instanceof t.DictionaryType) {
    return { type: 'object', additionalProperties: toJsonSchema(c.codomain as t.Mixed) };
  }
  throw new Error(`toJsonSchema: no JSON Schema for codec ${codec.name}`);
};

const objectSchema = (props: t.Props, required: string[]): JsonSchema => {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, codec] of Object.entries(props)) properties[key] = toJsonSchema(codec);
  return { type: 'object', properties, required, additionalProperties: false };
};

/** What a schema expects, in words for an error message: `string`, `integer from 1 to 100`, `array of strings`. */
export const describeExpected = (schema: JsonSchema): string => {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.anyOf) return schema.anyOf.map(describeExpected).join(' or ');
  switch (schema.type) {
    case 'array': {
      const item = schema.items ? describeExpected(schema.items) : 'values';
      const items = item.startsWith('object') ? 'objects' : item === 'string' ? 'strings' : item;
      return schema.maxItems !== undefined ? `array of at most ${schema.maxItems} ${items}` : `array of ${items}`;
    }
    case 'integer':
    case 'number': {
      const base = schema.type;
      if (schema.minimum !== undefined && schema.maximum !== undefined)
        return `${base} from ${schema.minimum} to ${schema.maximum}`;
      if (schema.minimum !== undefined) return `${base} of at least ${schema.minimum}`;
      return base;
    }
    case 'object': {
      if (schema.properties) {
        const keys = Object.keys(schema.properties);
        return `object with ${keys.map((k) => (schema.required?.includes(k) ? k : `${k}?`)).join(', ')}`;
      }
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return `object of ${describeExpected(schema.additionalProperties)} values`;
      }
      return 'object';
    }
    case 'string': {
      if (schema.pattern === '^[0-9]+$') return 'numeric string';
      if (schema.pattern === '^[A-Za-z]{2}$') return 'two-letter code';
      // "" and "  " are strings: say what the string must hold (issue 37)
      const kind = (schema.minLength ?? 0) >= 1 ? 'non-empty string' : 'string';
      if (schema.maxLength !== undefined) return `${kind} of at most ${schema.maxLength} characters`;
      return kind;
    }
    default:
      return schema.type ?? 'value';
  }
};
