import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// HubSpot's own OpenAPI documents (test/fixtures/hubspot-openapi, unchanged copies of
// shared/vendor-specs/hubspot; or HUBSPOT_SPECS_DIR), their operations and compiled validators, plus the
// hand-written operations none of the copied documents hold.

export type Json = Record<string, unknown>;
type Schema = Json;

export const SPECS_DIR =
  process.env['HUBSPOT_SPECS_DIR'] ??
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/hubspot-openapi');

const SPEC_FILES = [
  { id: 'crm-contacts-v3', file: 'crm-contacts-v3/contacts.json' },
  { id: 'crm-contacts-2026-03', file: 'crm-contacts-2026-03/contacts.json' },
  { id: 'crm-associations-v4', file: 'crm-associations-v4/associations.json' },
  { id: 'auth-oauth-v1', file: 'auth-oauth-v1/oauth.json' },
  { id: 'auth-oauth-2026-03', file: 'auth-oauth-2026-03/oauth.json' },
  { id: 'crm-companies-v3', file: 'crm-companies-v3/companies.json' },
  { id: 'crm-properties-v3', file: 'crm-properties-v3/properties.json' },
] as const;

const OBJECT_PREFIXES: Record<string, string> = {
  '/crm/v3/objects': 'crm-contacts-v3',
  '/crm/objects/2026-03': 'crm-contacts-2026-03',
};

/** An operation a request was matched to: from a document, or hand-written for endpoints none of the copied documents hold. */
export interface Operation {
  readonly key: string;
  readonly docId: string;
  readonly method: string;
  readonly template: string;
  readonly pattern: RegExp;
  readonly pathParams: readonly string[];
  readonly parameters: readonly Json[];
  readonly requestBody?: Json;
  readonly responses: Json;
  /** Alternatives, each a list of OAuth scopes that together suffice; empty when no token is needed. */
  readonly scopes: readonly (readonly string[])[];
  readonly authenticated: boolean;
  readonly handWritten: boolean;
}

export const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);

/** Deep copy with every `#/components/...` reference made absolute to the document's `$id`. */
const absoluteRefs = (node: unknown, docId: string): unknown => {
  if (Array.isArray(node)) return node.map((n) => absoluteRefs(n, docId));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${docId}${v}` : absoluteRefs(v, docId);
  return out;
};

/**
 * Deep copy in which every object schema that lists `properties` and says nothing about other
 * members refuses them: HubSpot rejects unknown JSON members ("Unrecognized field ..."), the
 * documents just do not say so.
 */
const closeObjects = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node))
    out[k] =
      k === 'properties' && isObject(v)
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, closeObjects(s)]))
        : closeObjects(v);
  const composed = 'oneOf' in node || 'anyOf' in node || 'allOf' in node;
  if (isObject(node['properties']) && !('additionalProperties' in node) && !composed)
    out['additionalProperties'] = false;
  return out;
};

/** HubSpot answers null for requested properties that are unset; the documents type them as plain strings. */
const nullableStrings = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(nullableStrings);
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = nullableStrings(v);
  if (out['type'] === 'string') out['nullable'] = true;
  return out;
};

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const newAjv = (options: ConstructorParameters<typeof Ajv>[0] = {}): Ajv => {
  const ajv = new Ajv({ strict: false, allErrors: true, ...options });
  addFormats(ajv);
  return ajv;
};

/** Ajv's errors in words; `wrapped` drops the `/v` of a value checked as `{ v: value }`. */
export const describe = (errors: ValidateFunction['errors'], where: string, wrapped = false): string[] =>
  (errors ?? []).map((e) => {
    const at = `${where}${wrapped ? e.instancePath.replace(/^\/v/, '') : e.instancePath}`;
    if (e.keyword === 'additionalProperties')
      return `${at} has a member the document does not declare: "${String(e.params['additionalProperty'])}"`;
    return `${at} ${e.message ?? 'is invalid'}${e.keyword === 'enum' ? ` (${JSON.stringify(e.params['allowedValues'])})` : ''}`;
  });

/** The documents, their operations and compiled validators; built once and shared by every server. */
class SpecCatalogue {
  readonly operations: Operation[] = [];
  readonly docs = new Map<string, Json>();
  readonly #requests = newAjv();
  readonly #values = newAjv({ coerceTypes: 'array' });
  readonly #responses = newAjv();
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(dir: string) {
    for (const { id, file } of SPEC_FILES) {
      const where = path.join(dir, file);
      if (!existsSync(where))
        throw new Error(
          `HubSpot's OpenAPI document ${where} is missing: the stand-in validates against it. Set HUBSPOT_SPECS_DIR to the vendor-specs/hubspot folder.`,
        );
      const doc = JSON.parse(readFileSync(where, 'utf8')) as Json;
      this.docs.set(id, doc);
      const schemas = (doc['components'] as Json | undefined)?.['schemas'] ?? {};
      this.#requests.addSchema({
        $id: `${id}.json`,
        components: { schemas: closeObjects(absoluteRefs(schemas, `${id}.json`)) },
      });
      this.#responses.addSchema({
        $id: `${id}.json`,
        components: { schemas: nullableStrings(absoluteRefs(schemas, `${id}.json`)) },
      });
      for (const [template, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
        for (const [method, raw] of Object.entries(item)) {
          if (!isObject(raw) || method === 'parameters') continue;
          this.operations.push(this.#operation(id, method.toUpperCase(), template, raw, false));
        }
      }
    }
    // Literal path templates win over templated ones (`/contacts/search` over `/contacts/{contactId}`).
    this.operations.sort((a, b) => a.pathParams.length - b.pathParams.length);
  }

  /**
   * Operations whose official documents are not in vendor-specs: account information, and companies search
   * and create on the date-versioned path (only the v3 companies document is there). They are checked with the request
   * schemas of the 2026-03 contacts document (HubSpot generates every CRM object API from one template).
   */
  handWritten(): Operation[] {
    const prefix = '/crm/objects/2026-03';
    const docId = OBJECT_PREFIXES[prefix]!;
    const ref = (name: string) => ({
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
    });
    const created = {
      '201': { content: { 'application/json': { schema: { $ref: '#/components/schemas/SimplePublicObject' } } } },
    };
    const found = {
      '200': {
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/CollectionResponseWithTotalSimplePublicObject' },
          },
        },
      },
    };
    return [
      // Account information (developers.hubspot.com/docs/api/settings/account-information-api): any token.
      this.#operation(
        'account-info-v3',
        'GET',
        '/account-info/v3/details',
        { responses: {}, security: [{ oauth2: [] }] },
        true,
      ),
      this.#operation(
        docId,
        'POST',
        `${prefix}/companies/search`,
        {
          requestBody: ref('PublicObjectSearchRequest'),
          responses: found,
          security: [{ oauth2: ['crm.objects.companies.read'] }],
        },
        true,
      ),
      this.#operation(
        docId,
        'POST',
        `${prefix}/companies`,
        {
          requestBody: ref('SimplePublicObjectInputForCreate'),
          responses: created,
          security: [{ oauth2: ['crm.objects.companies.write'] }],
        },
        true,
      ),
    ];
  }

  #operation(docId: string, method: string, template: string, raw: Json, handWritten: boolean): Operation {
    const pathParams: string[] = [];
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_m, name: string) => {
        pathParams.push(name);
        return '([^/]+)';
      })}$`,
    );
    const security = Array.isArray(raw['security']) ? (raw['security'] as Json[]) : [];
    const scopes = security.map((s) => (Array.isArray(s['oauth2']) ? (s['oauth2'] as string[]) : []));
    return {
      key: `${docId} ${method} ${template}`,
      docId,
      method,
      template,
      pattern,
      pathParams,
      parameters: Array.isArray(raw['parameters']) ? (raw['parameters'] as Json[]) : [],
      requestBody: isObject(raw['requestBody']) ? raw['requestBody'] : undefined,
      responses: isObject(raw['responses']) ? raw['responses'] : {},
      scopes,
      authenticated: security.length > 0,
      handWritten,
    };
  }

  validator(kind: 'request' | 'response' | 'value', docId: string, schema: Json): ValidateFunction {
    const key = `${kind} ${docId} ${JSON.stringify(schema)}`;
    let v = this.#cache.get(key);
    if (!v) {
      const absolute = absoluteRefs(schema, `${docId}.json`) as Schema;
      v =
        kind === 'request'
          ? this.#requests.compile(closeObjects(absolute) as Schema)
          : kind === 'response'
            ? this.#responses.compile(nullableStrings(absolute) as Schema)
            : this.#values.compile({ type: 'object', properties: { v: absolute } });
      this.#cache.set(key, v);
    }
    return v;
  }
}

let catalogue: SpecCatalogue | undefined;
export const specs = (): SpecCatalogue => (catalogue ??= new SpecCatalogue(SPECS_DIR));
