// DefaultStorageClass: a new PersistentVolumeClaim that names no class (spec.storageClassName unset and no
// `volume.beta.platform.io/storage-class` annotation) gets the default StorageClass. An empty
// storageClassName is a choice ("no class") and stays. With no default class the claim is left as it is.
import type { AdmissionPlugin } from './chain.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { syncToStorage } from '../registry/list.ts';
import { isDefaultClass } from '../apis/storage/storageclass.ts';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../apis/core/persistentvolume-common.ts';

/**
 * Kubernetes' GetDefaultClass: among the classes annotated as default (GA or beta annotation), the newest
 * by creationTimestamp; created at the same time, the name that sorts first.
 */
export function defaultStorageClass(classes: ApiObject[]): ApiObject | undefined {
  let best: ApiObject | undefined;
  let bestTime = -Infinity;
  for (const c of classes) {
    if (!isDefaultClass(c)) continue;
    const t = Date.parse(c.metadata.creationTimestamp ?? '') || 0;
    if (!best || t > bestTime || (t === bestTime && (c.metadata.name ?? '') < (best.metadata.name ?? ''))) {
      best = c;
      bestTime = t;
    }
  }
  return best;
}

/** Kubernetes' PersistentVolumeClaimHasClass: the beta annotation (any value) or a set storageClassName. */
export function claimHasClass(claim: ApiObject): boolean {
  const annotations = claim.metadata.annotations;
  if (annotations && Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return true;
  const name = (claim.spec as { storageClassName?: string | null } | undefined)?.storageClassName;
  return name !== undefined && name !== null;
}

/** `storageClasses` is the StorageClass store, read up to date with `storage` before each decision. */
export function defaultStorageClassPlugin(storageClasses: () => ResourceStore | undefined, storage: Storage): AdmissionPlugin {
  const choose = async (store: ResourceStore, claim: ApiObject): Promise<void> => {
    await syncToStorage(store, storage);
    const chosen = defaultStorageClass(store.cache.list(store.listPrefix('')).map((c) => c.object as ApiObject));
    if (chosen?.metadata.name) ((claim.spec ??= {}) as { storageClassName?: string }).storageClassName = chosen.metadata.name;
  };
  return {
    name: 'DefaultStorageClass',
    // Anything but a new claim without a class answers at once (no promise).
    admit(attrs) {
      const { served, operation, object } = attrs;
      if (operation !== 'CREATE' || served.def.group !== '' || served.def.plural !== 'persistentvolumeclaims' || attrs.ctx.subresource || !object) return;
      if (claimHasClass(object)) return;
      const store = storageClasses();
      if (!store) return;
      return choose(store, object);
    },
  };
}
