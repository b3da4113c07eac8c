import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../composition/config.js';
import { TRACING_VARIABLES } from '../../adapters/outbound/observability/tracing.js';
import { testGateway } from '../support/gateway.js';
import { DEPLOY, kubernetesProblems, readYaml, ROOT, yamlDocuments } from '../support/deploy.js';

// deploy/kubernetes/ (issue 32) against the Kubernetes API schemas that `kubernetes-models` bundles (validated
// offline, no cluster), then what the schemas cannot say: the probes name endpoints the gateway serves, the
// selectors and names agree, the pods run as a non-root user on a read-only root, and no secret value is here.

const DIR = resolve(DEPLOY, 'kubernetes');
const manifests = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');

type Obj = Record<string, any>; // parsed YAML
const objects: Obj[] = manifests.flatMap((f) => readYaml(resolve(DIR, f)) as Obj[]);
const one = (kind: string, component?: string): Obj => {
  const found = objects.filter(
    (o) => o['kind'] === kind && (!component || o['metadata']?.labels?.['app.kubernetes.io/component'] === component),
  );
  expect(found, `one ${kind}`).toHaveLength(1);
  return found[0]!;
};
const deployment = one('Deployment');
const pod = deployment['spec'].template.spec as Obj;
const container = pod['containers'][0] as Obj;
const job = one('Job');
const configMap = one('ConfigMap');

/** Every name=value a container gets: its env, and the keys of the ConfigMap when it takes it whole. */
const envOf = (c: Obj): Obj[] => [
  ...((c['env'] ?? []) as Obj[]),
  ...((c['envFrom'] ?? []) as Obj[]).flatMap((from) => {
    expect(from['configMapRef']?.name, 'envFrom names the ConfigMap').toBe(configMap['metadata'].name);
    return Object.entries(configMap['data'] as Obj).map(([name, value]) => ({ name, value }));
  }),
];
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|ENCRYPTION_KEY|API_KEYS|DATABASE_URL/;

describe('the manifests against the Kubernetes API schemas (kubernetes-models)', () => {
  it.each(manifests)('%s is valid', async (file) => {
    const docs = readYaml(resolve(DIR, file));
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) expect(await kubernetesProblems(doc)).toEqual([]);
  });

  it('has every kind issue 32 asks for', () => {
    const kinds = objects.map((o) => `${o['apiVersion']} ${o['kind']}`);
    for (const kind of [
      'apps/v1 Deployment',
      'v1 Service',
      'autoscaling/v2 HorizontalPodAutoscaler',
      'policy/v1 PodDisruptionBudget',
      'batch/v1 Job',
    ])
      expect(kinds).toContain(kind);
  });

  it('fails broken manifests (so a green run means something)', async () => {
    const broken: Array<[string, (d: Obj) => void]> = [
      ['replicas as a word', (d) => (d['spec'].replicas = 'three')],
      ['no containers', (d) => delete d['spec'].template.spec.containers],
      ['a probe without its port', (d) => delete d['spec'].template.spec.containers[0].readinessProbe.httpGet.port],
      ['a port that is not a number', (d) => (d['spec'].template.spec.containers[0].ports[0].containerPort = 'http')],
      ['a memory limit that is an object', (d) => (d['spec'].template.spec.containers[0].resources.limits = [])],
      ['an API version that does not exist', (d) => (d['apiVersion'] = 'apps/v2')],
      ['no selector', (d) => delete d['spec'].selector],
    ];
    for (const [what, breakIt] of broken) {
      const copy = structuredClone(deployment);
      breakIt(copy);
      expect(await kubernetesProblems(copy), what).not.toEqual([]);
    }
    const hpa = structuredClone(one('HorizontalPodAutoscaler'));
    hpa['spec'].metrics[0].resource.target = { type: 'Utilization', averageUtilization: '70%' };
    expect(await kubernetesProblems(hpa)).not.toEqual([]);
    expect(() => yamlDocuments('kind: Service\n  metadata: {name: x', 'broken.yaml')).toThrow(/broken\.yaml/);
  });
});

describe('what the schemas cannot check', () => {
  const gateway = testGateway();
  afterAll(() => gateway.close());

  it('probes name endpoints the gateway serves: liveness /healthz, readiness /readyz', async () => {
    expect(container['readinessProbe'].httpGet.path).toBe('/readyz');
    for (const probe of ['livenessProbe', 'startupProbe', 'readinessProbe']) {
      const { path, port } = container[probe].httpGet as Obj;
      expect(port, probe).toBe('http');
      const answer = await gateway.http.request(path as string);
      expect(answer.status, `${probe} ${path}`).toBe(200);
    }
  });

  it('agrees with itself: port, selectors, names, image', () => {
    const port = container['ports'].find((p: Obj) => p['name'] === 'http') as Obj;
    expect(String(port['containerPort'])).toBe(configMap['data'].PORT);
    expect(configMap['data'].HOST).toBe('0.0.0.0');
    const labels = deployment['spec'].template.metadata.labels as Obj;
    expect(labels).toMatchObject(deployment['spec'].selector.matchLabels as Obj);
    const service = one('Service');
    expect(labels).toMatchObject(service['spec'].selector as Obj);
    expect(service['spec'].ports.map((p: Obj) => p['targetPort'])).toEqual(['http']);
    // Issue 39: no affinity (a 2025-era approval's answer reaches the waiting pod through Redis, which is set).
    expect(service['spec'].sessionAffinity ?? 'None').toBe('None');
    expect(configMap['data'].REDIS_URL).toMatch(/^rediss?:\/\//);
    expect(labels).toMatchObject(one('PodDisruptionBudget')['spec'].selector.matchLabels as Obj);
    const hpa = one('HorizontalPodAutoscaler')['spec'] as Obj;
    expect(hpa['scaleTargetRef']).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tool-gateway' });
    expect(hpa['minReplicas']).toBeGreaterThanOrEqual(2);
    expect(pod['serviceAccountName']).toBe(one('ServiceAccount')['metadata'].name);
    const kustomization = readYaml(resolve(DIR, 'kustomization.yaml'))[0] as Obj;
    expect(kustomization['images'].map((i: Obj) => i['name'])).toContain(container['image']);
  });

  it('runs as a non-root user on a read-only root, the data dir and /tmp writable volumes', () => {
    for (const spec of [pod, job['spec'].template.spec as Obj]) {
      expect(spec['securityContext'].runAsNonRoot).toBe(true);
      expect(spec['securityContext'].runAsUser).toBeGreaterThan(0);
      for (const c of spec['containers'] as Obj[]) {
        expect(c['securityContext']).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
        expect(c['securityContext'].capabilities.drop).toEqual(['ALL']);
        for (const r of ['cpu', 'memory']) {
          expect(c['resources'].requests[r], `${c['name']} requests ${r}`).toBeDefined();
          expect(c['resources'].limits[r], `${c['name']} limits ${r}`).toBeDefined();
        }
      }
    }
    const mounts = new Map((container['volumeMounts'] as Obj[]).map((m) => [m['mountPath'], m['name']]));
    const volumes = new Map((pod['volumes'] as Obj[]).map((v) => [v['name'], v]));
    const dataDir = configMap['data'].GATEWAY_DATA_DIR as string;
    for (const path of [dataDir, '/tmp']) {
      expect(mounts.has(path), path).toBe(true);
      expect(volumes.get(mounts.get(path))?.['emptyDir'], path).toBeDefined();
    }
    // The same folder the image makes writable for its user (test/deploy/dockerfile.test.ts checks the image).
    expect(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8')).toContain(`GATEWAY_DATA_DIR=${dataDir}`);
  });

  it('holds no secret value: no Secret object, secrets only by secretKeyRef, every variable one the gateway reads', () => {
    expect(objects.map((o) => o['kind'])).not.toContain('Secret');
    const known = new Set([...ENV_VARIABLES, ...TRACING_VARIABLES, 'NODE_ENV']);
    for (const c of [container, ...(job['spec'].template.spec.containers as Obj[])]) {
      for (const variable of envOf(c)) {
        expect(known.has(variable['name']), `${variable['name']} is read by the gateway`).toBe(true);
        if (SECRET_NAME.test(variable['name'] as string)) {
          expect(variable['value'], `${variable['name']} has no value here`).toBeUndefined();
          expect(variable['valueFrom']?.secretKeyRef, variable['name']).toMatchObject({
            name: 'tool-gateway',
            key: variable['name'],
          });
        }
      }
    }
    for (const key of Object.keys(configMap['data'] as Obj)) expect(SECRET_NAME.test(key), key).toBe(false);
  });

  it('migrates once, in a Job that runs the migration entry, before the Deployment (not in the kustomization)', () => {
    const spec = job['spec'] as Obj;
    expect(spec['completions']).toBe(1);
    expect(spec['parallelism']).toBe(1);
    expect(spec['template'].spec.restartPolicy).toBe('Never');
    const [migrate] = spec['template'].spec.containers as Obj[];
    expect(migrate?.['command']).toEqual(['node', 'dist/composition/migrate.js']);
    expect(existsSync(resolve(ROOT, 'composition/migrate.ts'))).toBe(true);
    expect(envOf(migrate!).map((v) => v['name'])).toEqual(['DATABASE_URL']);
    const kustomization = readYaml(resolve(DIR, 'kustomization.yaml'))[0] as Obj;
    expect([...(kustomization['resources'] as string[])].sort()).toEqual(
      manifests.filter((f) => f !== 'migrate-job.yaml').sort(),
    );
  });
});
