// The part of Kubernetes' API Priority and Fairness configuration consumer that clients see: every
// FlowSchema's `Dangling` condition says whether the PriorityLevelConfiguration it names exists (kubectl's
// MISSINGPL column reads it). The condition is written when its status, reason or message would change,
// with the time of that change, under the consumer's field manager.
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiServerContext } from '../apis/kind.ts';
import type { ResourceStore } from '../registry/store.ts';
import { isConflict, isNotFound, StatusError } from '../machinery/status.ts';
import { nowRfc3339 } from '../registry/names.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';

type Obj = Record<string, any>;

const FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';
const DANGLING = 'Dangling';
/** Kubernetes' consumer looks at everything again at least this often. */
const RESYNC_MS = 60_000;

export interface DanglingCondition { type: string; status: string; lastTransitionTime?: string; reason: string; message: string }

/** The Dangling condition a FlowSchema naming priority level `level` should carry. */
export function danglingCondition(level: string, exists: boolean): Omit<DanglingCondition, 'lastTransitionTime'> {
  const quoted = JSON.stringify(level);
  return exists
    ? { type: DANGLING, status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${quoted} and it exists` }
    : { type: DANGLING, status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${quoted} but there is no such object` };
}

/** The FlowSchema's status with `wanted` in place of its Dangling condition, or undefined when it has it already. */
export function withDangling(flowSchema: Obj, wanted: Omit<DanglingCondition, 'lastTransitionTime'>, now: string): Obj | undefined {
  const conditions = (Array.isArray(flowSchema.status?.conditions) ? flowSchema.status.conditions : []) as DanglingCondition[];
  const current = conditions.find((c) => c?.type === DANGLING);
  if (current && current.status === wanted.status && current.reason === wanted.reason && current.message === wanted.message) return undefined;
  const condition: DanglingCondition = { type: DANGLING, status: wanted.status, lastTransitionTime: now, reason: wanted.reason, message: wanted.message };
  const next = current ? conditions.map((c) => (c === current ? condition : c)) : [...conditions, condition];
  return { ...flowSchema.status, conditions: next };
}

export interface FlowSchemaStatusDeps {
  flowSchemas: ResourceStore;
  priorityLevels: ResourceStore;
  log(line: string): void;
  resyncMs?: number;
}

export function startFlowSchemaStatus(deps: FlowSchemaStatusDeps): { stop(): void; queue: WorkQueue } {
  const { flowSchemas, priorityLevels } = deps;
  const ctx = () => apiServerContext('status', FIELD_MANAGER);

  const queue = new WorkQueue(async (name) => {
    const cached = flowSchemas.current('', name)?.object as Obj | undefined;
    if (!cached) return;
    const level = String(cached.spec?.priorityLevelConfiguration?.name ?? '');
    const wanted = danglingCondition(level, !!priorityLevels.current('', level));
    if (!withDangling(cached, wanted, '')) return;
    try {
      await flowSchemas.update('', (current) => {
        if (!current) throw new StatusError(404, 'NotFound', `${name} is gone`);
        // Decided on the version being written, which may be newer than the cached one.
        const status = withDangling(current, wanted, nowRfc3339());
        return (status ? { ...current, status } : current) as ApiObject;
      }, { ctx: ctx(), dryRun: false, subresource: 'status', allowCreate: false, name });
    } catch (err) {
      if (isNotFound(err)) return;
      if (isConflict(err)) throw new Requeue((err as Error).message);
      throw err;
    }
  }, { name: 'flowschema status', log: deps.log });

  const all = () => { for (const fs of flowSchemas.cache.list()) queue.add(fs.name); };
  const informer = startInformer({
    stores: [flowSchemas, priorityLevels],
    onEvent(store, e) {
      if (store === flowSchemas) { if (!e.deleted) queue.add(e.current.name); return; }
      // A priority level came or went: the schemas naming it change.
      for (const fs of flowSchemas.cache.list()) {
        if ((fs.object as Obj).spec?.priorityLevelConfiguration?.name === e.current.name) queue.add(fs.name);
      }
    },
    resync: all,
    resyncMs: deps.resyncMs ?? RESYNC_MS,
    log: deps.log,
    name: 'flowschema status',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
