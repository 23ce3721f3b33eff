// The Events controllers record about the objects they act on (what `kubectl describe` lists), as client-go's
// event recorder writes them for Kubernetes' controllers: a core/v1 Event named `<object>.<time in hex ns>`
// in the object's namespace, with the controller as source and reporting component; the same event again
// within ten minutes raises the count and lastTimestamp of the one recorded instead of adding another.
// Recording is best effort: a failure is logged, never the controller's.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { updateObject } from '../registry/update-object.ts';
import { controllerContext } from './client.ts';
import { formatTimeMs } from '../machinery/apply/managers.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  event(object: ApiObject, type: EventType, reason: string, message: string): void;
}

/** client-go's EventCorrelator keeps a recorded event this long for counting repeats. */
const AGGREGATION_WINDOW_MS = 10 * 60_000;
/** Repeats remembered at most (the correlator's LRU size). */
const MAX_REMEMBERED = 4096;

interface Recorded { name: string; namespace: string; at: number }

export function eventRecorder(events: ResourceStore, component: string, log: (line: string) => void, now: () => number = Date.now): EventRecorder {
  const ctx = controllerContext(component);
  const recorded = new Map<string, Recorded>();
  let lastNanos = 0n;

  async function write(object: ApiObject, type: EventType, reason: string, message: string): Promise<void> {
    const meta = object.metadata;
    const namespace = meta.namespace || 'default';
    const key = [object.apiVersion, object.kind, namespace, meta.name, meta.uid, type, reason, message].join('\u0000');
    const t = now();
    const stamp = formatTimeMs(t);
    const seen = recorded.get(key);
    if (seen && t - seen.at < AGGREGATION_WINDOW_MS) {
      const updated = await updateObject(events, ctx, seen.namespace, seen.name, (event) => {
        event.count = ((event.count as number | undefined) ?? 1) + 1;
        event.lastTimestamp = stamp;
      });
      if (updated) { seen.at = t; return; }
    }
    // Names must be unique: nanoseconds of the clock, never the same twice.
    let nanos = BigInt(t) * 1_000_000n;
    if (nanos <= lastNanos) nanos = lastNanos + 1n;
    lastNanos = nanos;
    const name = `${meta.name}.${nanos.toString(16)}`;
    await events.create(namespace, {
      apiVersion: 'v1', kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { kind: object.kind, namespace: meta.namespace, name: meta.name, uid: meta.uid, apiVersion: object.apiVersion, resourceVersion: meta.resourceVersion },
      reason, message, source: { component }, firstTimestamp: stamp, lastTimestamp: stamp, count: 1, type,
      reportingComponent: component, reportingInstance: '',
    } as ApiObject, { ctx, dryRun: false });
    if (recorded.size >= MAX_REMEMBERED) recorded.delete(recorded.keys().next().value!);
    recorded.set(key, { name, namespace, at: t });
  }

  return {
    event(object, type, reason, message) {
      write(object, type, reason, message).catch((err) => log(`${component}: event ${reason} for ${object.metadata.namespace}/${object.metadata.name} not recorded: ${(err as Error).message}`));
    },
  };
}
