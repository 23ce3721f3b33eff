// A Pod's `eviction` sub-resource: POST a policy/v1 Eviction (v1beta1 is read too) to delete the pod subject
// to its disruption budgets. No PodDisruptionBudget is served, so no budget ever stands in the way, and an
// eviction deletes the pod as Kubernetes' does when none selects it: with the Eviction's deleteOptions, and
// answering 201 with a Success Status. `kubectl drain` evicts this way once discovery lists the sub-resource.
import type { ViewSubresource, ViewTarget } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { DeleteOptions, ObjectMeta } from '../meta/v1.ts';
import { withProto } from './schema-helpers.ts';
import * as status from '../../machinery/status.ts';

export const EvictionSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  deleteOptions: { ...DeleteOptions, 'x-proto': 2, description: 'DeleteOptions may be provided' },
}, { ref: 'policy.v1.Eviction', description: 'Eviction evicts a pod from its node subject to certain policies and safety constraints. This is a subresource of Pod.  A request to cause such an eviction is created by POSTing to .../pods/<pod name>/evictions.' });

/** Kubernetes retries an eviction that lost a race with another write of the pod (EvictionsRetry: 20 steps). */
const ATTEMPTS = 20;

type Obj = Record<string, any>;

/** Phases in which a pod's disruption has already happened or not yet started: its budgets need no say. */
const BUDGET_FREE_PHASES = new Set(['Succeeded', 'Failed', 'Pending']);

async function evict(eviction: ApiObject, target: ViewTarget): Promise<ApiObject> {
  if ((eviction.metadata?.name ?? '') !== target.name) throw status.badRequest('name in URL does not match name in Eviction object');
  const options = (eviction as Obj).deleteOptions as Obj | undefined;
  const givenVersion = options?.preconditions?.resourceVersion;
  for (let attempt = 1; ; attempt++) {
    const pod = await target.read();
    const deleting = !!pod.metadata.deletionTimestamp;
    const phase = (pod.status as Obj | undefined)?.phase;
    const budgetFree = deleting || BUDGET_FREE_PHASES.has(phase);
    // A pending pod is deleted only at the version read, so that it cannot have become ready (and counted
    // for a budget) in between; a terminal or terminating one as it is.
    const atVersion = phase === 'Pending' && !deleting && givenVersion == null;
    const opts = atVersion ? { ...options, preconditions: { ...options?.preconditions, resourceVersion: pod.metadata.resourceVersion } } : options;
    try {
      await target.delete(opts);
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
    } catch (err) {
      // As Kubernetes' retry loop, which covers the budget-free branch only: a lost race reads the pod again,
      // unless the caller named the version itself.
      if (!status.isConflict(err) || !budgetFree || givenVersion != null || attempt >= ATTEMPTS) throw err;
    }
  }
}

export const evictionSubresource: ViewSubresource = {
  name: 'eviction',
  group: 'policy',
  version: 'v1',
  alsoAccepts: ['v1beta1'],
  kind: 'Eviction',
  verbs: ['create'],
  schema: EvictionSchema,
  create: evict,
};
