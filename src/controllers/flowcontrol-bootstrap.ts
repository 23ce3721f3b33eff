// Keeps the API Priority and Fairness configuration (apis/flowcontrol/bootstrap.ts) in the store, as
// Kubernetes' config producer does at start and every minute: each wanted object is created when missing
// and revised when its rule says so; objects the server made that are no longer wanted are deleted.
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiServerContext } from '../apis/kind.ts';
import { GROUP } from '../apis/flowcontrol/common.ts';
import { madeByServer, mandatoryFlowSchemas, mandatoryPriorityLevels, revise, suggestedFlowSchemas, suggestedPriorityLevels } from '../apis/flowcontrol/bootstrap.ts';
import type { StoreLookup } from '../auth/stores.ts';
import { isNotFound, StatusError } from '../machinery/status.ts';
import { deepClone } from '../machinery/schema/walk.ts';
import { retryWhenRaced } from '../registry/retry-when-raced.ts';
import type { ResourceStore } from '../registry/store.ts';

/** Kubernetes' flow control configuration producer writes under a field manager of its own. */
const apfContext = () => apiServerContext('', 'api-priority-and-fairness-config-producer-v1');

/** Creates the object when missing, else brings it in line. */
function ensureObject(store: ResourceStore, wanted: ApiObject, mandatory: boolean): Promise<void> {
  const name = wanted.metadata.name!;
  return retryWhenRaced(store, async () => {
    const cached = store.current('', name)?.object as ApiObject | undefined;
    if (!cached) {
      await store.create('', deepClone(wanted), { ctx: apfContext(), dryRun: false });
      return;
    }
    if (!revise(store.def, cached, wanted, mandatory)) return;
    // Decided again on the object the update is given, which may be newer than the cached one.
    await store.update('', (current) => {
      if (!current) throw new StatusError(404, 'NotFound', `${name} is gone`);
      return revise(store.def, current, wanted, mandatory) ?? current;
    }, { ctx: apfContext(), dryRun: false, subresource: '', allowCreate: false, name });
  });
}

/** Deletes objects the server made whose names are no longer wanted; others stay. */
async function removeUnwanted(store: ResourceStore, wanted: readonly ApiObject[]): Promise<void> {
  const names = new Set(wanted.map((o) => o.metadata.name));
  const unwanted = store.cache.list().map((c) => c.object as ApiObject).filter((o) => !names.has(o.metadata.name) && madeByServer(o));
  await Promise.all(unwanted.map(async (o) => {
    try {
      await store.delete('', o.metadata.name!, { ctx: apfContext(), dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }));
}

/** Creates, repairs and prunes the flow control bootstrap configuration; all writes at once. */
export async function ensureFlowControlBootstrap(lookup: StoreLookup): Promise<void> {
  const levels = lookup(GROUP, 'prioritylevelconfigurations');
  const schemas = lookup(GROUP, 'flowschemas');
  if (!levels || !schemas) return;
  const mandatoryLevels = mandatoryPriorityLevels(), suggestedLevels = suggestedPriorityLevels();
  const mandatorySchemas = mandatoryFlowSchemas(), suggestedSchemas = suggestedFlowSchemas();
  await Promise.all([
    ...mandatoryLevels.map((o) => ensureObject(levels, o, true)),
    ...suggestedLevels.map((o) => ensureObject(levels, o, false)),
    ...mandatorySchemas.map((o) => ensureObject(schemas, o, true)),
    ...suggestedSchemas.map((o) => ensureObject(schemas, o, false)),
    removeUnwanted(levels, [...mandatoryLevels, ...suggestedLevels]),
    removeUnwanted(schemas, [...mandatorySchemas, ...suggestedSchemas]),
  ]);
}
