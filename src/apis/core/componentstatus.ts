// ComponentStatus (core v1, cluster-scoped, deprecated since 1.19): the health of the control plane's parts,
// computed on every read from their health checks and never stored. Kubernetes lists the scheduler, the
// controller manager and each etcd member (`etcd-0` ...); Capstan lists its store (`etcd-N`, one per etcd
// endpoint, or `etcd-0` for the embedded store) and its controller manager: the server's component checks
// (src/server/component-checks.ts). Only get and list are served.
import type { ComponentCheck, ComponentHealth, ComputedKindDefinition, ComputedSource } from '../computed-kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn } from '../meta/table.ts';
import { deprecated } from '../deprecation.ts';
import { withProto } from './schema-helpers.ts';

const DEPRECATED_NOTE = 'Deprecated: This API is deprecated in v1.19+';

export const ComponentCondition = S.object({
  type: S.string({ proto: 1, description: 'Type of condition for a component. Valid value: "Healthy"' }),
  status: S.string({ proto: 2, description: 'Status of the condition for a component. Valid values for "Healthy": "True", "False", or "Unknown".' }),
  message: S.string({ proto: 3, description: 'Message about the condition for a component. For example, information about a health check.' }),
  error: S.string({ proto: 4, description: 'Condition error code for a component. For example, a health check error code.' }),
}, { required: ['type', 'status'], ref: 'core.v1.ComponentCondition', description: 'Information about the condition of a component.' });

export const ComponentStatusSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  conditions: S.list(ComponentCondition, { proto: 2, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: 'List of component conditions observed' }),
}, { ref: 'core.v1.ComponentStatus', description: `ComponentStatus (and ComponentStatusList) holds the cluster validation info. ${DEPRECATED_NOTE}` });

interface Condition { type?: string; status?: string; message?: string; error?: string }

/** The Healthy condition, as Kubernetes' printer reads it: the first condition of that type. */
function healthy(obj: ApiObject): Condition | undefined {
  const conditions = Array.isArray(obj.conditions) ? (obj.conditions as Condition[]) : [];
  return conditions.find((c) => c?.type === 'Healthy');
}

export const componentStatusKind: ComputedKindDefinition = {
  group: '',
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  versions: [{
    name: 'v1',
    stability: 'stable',
    schema: ComponentStatusSchema,
    deprecated: deprecated({ group: '', version: 'v1', kind: 'ComponentStatus', deprecatedIn: '1.19' }),
  }],
  storageVersion: 'v1',
  trackGeneration: false,
  computed: { verbs: ['get', 'list'], source: (server) => componentStatusSource(server.components) },

  tableColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'Status of the component conditions', cell: (o) => { const c = healthy(o); return c ? (c.status === 'True' ? 'Healthy' : 'Unhealthy') : 'Unknown'; } },
    { name: 'Message', type: 'string', description: 'Message of the component conditions', cell: (o) => healthy(o)?.message ?? '' },
    { name: 'Error', type: 'string', description: 'Error of the component conditions', cell: (o) => healthy(o)?.error ?? '' },
  ],
};

/** One ComponentStatus, as Kubernetes writes a synthesised one (no creation time: `creationTimestamp: null`). */
export function componentStatus(name: string, health: ComponentHealth): ApiObject {
  const condition: Condition = { type: 'Healthy', status: health.healthy ? 'True' : 'False' };
  if (health.message) condition.message = health.message;
  if (health.error) condition.error = health.error;
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name, creationTimestamp: null } as unknown as ApiObject['metadata'], conditions: [condition] };
}

/** Runs one check; a check that throws is unhealthy with its message as the error. */
async function runCheck(c: ComponentCheck): Promise<ApiObject> {
  let health: ComponentHealth;
  try {
    health = await c.check();
  } catch (err) {
    health = { healthy: false, error: (err as Error)?.message ?? String(err) };
  }
  return componentStatus(c.name, health);
}

/** The objects of the checks: all checks run at once on a list, only the named one on a get. */
export function componentStatusSource(checks: readonly ComponentCheck[]): ComputedSource {
  const sorted = [...checks].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    list: () => Promise.all(sorted.map(runCheck)),
    get: async (name) => {
      const c = sorted.find((x) => x.name === name);
      return c ? runCheck(c) : undefined;
    },
  };
}
