// Server-side apply to a workload's `scale` sub-resource, as Kubernetes' scale handler does it: the parent's
// owners of spec.replicas become owners of the Scale's spec.replicas, the Scale is applied like any object,
// and the outcome goes back to the parent: owners that lost replicas lose it there, and the Scale's new
// owners own the parent's spec.replicas through the `scale` sub-resource.
import type { ApiObject } from '../../apis/meta/v1.ts';
import { ScaleSchema } from '../../apis/autoscaling/scale.ts';
import { FieldSet } from './fieldset.ts';
import { decodeManagedFields, emptyManaged, encodeManagedFields, type Managed, type ManagerSet } from './managers.ts';
import type { FieldManagerScope } from './field-manager.ts';
import { fieldElement } from './path.ts';
import { rootType } from './schema-view.ts';

const SCALE_VERSION = 'autoscaling/v1';
const REPLICAS = [fieldElement('spec'), fieldElement('replicas')];

/** The field manager's view of a Scale written through `scale`: its status is the parent's, owned by nobody. */
export const scaleScope: FieldManagerScope = {
  type: rootType(ScaleSchema),
  apiVersion: SCALE_VERSION,
  kind: 'Scale',
  subresource: 'scale',
  resetFields: FieldSet.of([fieldElement('status')]),
};

function decodeOrEmpty(entries: unknown): Managed {
  try { return decodeManagedFields(entries); } catch { return emptyManaged(); }
}

function encoded(managed: Managed): ApiObject['metadata']['managedFields'] {
  return managed.fields.size ? encodeManagedFields(managed) as ApiObject['metadata']['managedFields'] : undefined;
}

/** The Scale's managedFields: each parent entry (of the parent's version) that owns spec.replicas owns the Scale's. */
export function scaleEntriesFromParent(parentEntries: unknown, parentApiVersion: string): ApiObject['metadata']['managedFields'] {
  const parent = decodeOrEmpty(parentEntries);
  const out = emptyManaged();
  for (const [id, vs] of parent.fields) {
    if (vs.apiVersion !== parentApiVersion || !vs.set.has(REPLICAS)) continue;
    out.fields.set(id, { set: FieldSet.of(REPLICAS), apiVersion: SCALE_VERSION, applied: vs.applied });
    const t = parent.times.get(id);
    if (t) out.times.set(id, t);
  }
  return encoded(out);
}

/**
 * The parent's managedFields after the Scale's were applied: entries of other versions are dropped (their
 * replicas path is unknown), an owner of replicas missing from the Scale's entries loses replicas, and the
 * Scale's remaining owners of replicas own the parent's.
 */
export function parentEntriesFromScale(parentEntries: unknown, scaleEntries: unknown, parentApiVersion: string): ApiObject['metadata']['managedFields'] {
  const parent = decodeOrEmpty(parentEntries);
  const scale = decodeOrEmpty(scaleEntries);
  const out = emptyManaged();
  const keep = (id: string, vs: ManagerSet, times: Map<string, string>) => {
    out.fields.set(id, vs);
    const t = times.get(id);
    if (t) out.times.set(id, t);
  };
  for (const [id, vs] of parent.fields) {
    if (vs.apiVersion !== parentApiVersion) continue;
    if (!vs.set.has(REPLICAS)) { keep(id, vs, parent.times); continue; }
    if (scale.fields.has(id)) {
      keep(id, vs, parent.times);
      scale.fields.delete(id);
      continue;
    }
    const rest = vs.set.difference(FieldSet.of(REPLICAS));
    if (!rest.empty()) keep(id, { set: rest, apiVersion: vs.apiVersion, applied: vs.applied }, parent.times);
  }
  for (const [id, vs] of scale.fields) {
    if (!vs.set.has(REPLICAS)) continue;
    keep(id, { set: FieldSet.of(REPLICAS), apiVersion: parentApiVersion, applied: vs.applied }, scale.times);
  }
  return encoded(out);
}
