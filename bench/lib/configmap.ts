// The one payload every system gets: a ConfigMap with about 1 KB of data. Capstan stores it, the floor
// answers and echoes it, and etcd stores its JSON as the value, so every system moves the same bytes.

const DATA_KEYS = 8;
const VALUE_LENGTH = 110;

/** About 1 KB of data: 8 keys of 110 characters each, deterministic. */
export function configMapData(seed = 0): Record<string, string> {
  const data: Record<string, string> = {};
  for (let k = 0; k < DATA_KEYS; k++) {
    const unit = `key${k}-seed${seed}-`;
    data[`key${k}`] = unit.repeat(Math.ceil(VALUE_LENGTH / unit.length)).slice(0, VALUE_LENGTH);
  }
  return data;
}

/** Body for a create; with no name it asks the server to generate one from "bench-". */
export function createBody(namespace: string, name?: string): Record<string, unknown> {
  const metadata: Record<string, unknown> = name ? { name, namespace } : { generateName: 'bench-', namespace };
  metadata.labels = { app: 'bench' };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: configMapData() };
}

/** A ConfigMap as a server would store and return it: what the floor answers and what etcd stores. */
export function storedConfigMap(namespace: string, name: string, resourceVersion = '1'): Record<string, unknown> {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name,
      namespace,
      uid: '6c0b6a43-1f1e-4d8e-9a55-3b0f5f0c2a11',
      resourceVersion,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: 'bench' },
    },
    data: configMapData(),
  };
}

/** A merge patch that really changes the object (a no-op patch would be short-circuited by a server). */
export function mergePatchBody(counter: number): string {
  return JSON.stringify({ data: { key0: `patched-${counter}` } });
}

/** The watch writer's patch: the send time in an annotation, read back by the watchers. */
export function stampPatchBody(stampMs: number): string {
  return JSON.stringify({ metadata: { annotations: { 'bench/stamp': String(stampMs) } } });
}

export function configMapPath(namespace: string, name?: string): string {
  return `/api/v1/namespaces/${namespace}/configmaps${name === undefined ? '' : `/${name}`}`;
}

export function indexedName(prefix: string, i: number): string {
  return `${prefix}${String(i).padStart(6, '0')}`;
}
