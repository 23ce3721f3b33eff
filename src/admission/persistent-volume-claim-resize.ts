// PersistentVolumeClaimResize (validating): a claim's storage request may only grow when the claim is
// bound and its class, unchanged by the update, is an existing StorageClass with allowVolumeExpansion.
// Kubernetes runs it after the claim's own update validation, which already refuses any change of an
// unbound claim's request (422, "spec is immutable after creation except resources.requests ... for bound
// claims"); so the server registers it among the plugins the registry runs once the object is validated.
import type { AdmissionPlugin, AdmissionAttributes } from './chain.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { syncToStorage } from '../registry/list.ts';
import { quantityFromJSON, type Quantity } from '../machinery/quantity.ts';
import { storageClassOf } from '../apis/core/persistentvolume-common.ts';
import { admissionForbidden } from './forbidden.ts';

export const ONLY_BOUND_MESSAGE = 'Only bound persistent volume claims can be expanded';
export const CLASS_MUST_ALLOW_MESSAGE = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

interface Claim { spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, unknown> | null } | null }; status?: { phase?: string } }

/** The claim's storage request; a missing one counts as zero. Undefined when it is no quantity (validation says so). */
function requestedStorage(claim: ApiObject): Quantity | undefined {
  try {
    return quantityFromJSON((claim as Claim).spec?.resources?.requests?.storage ?? '0');
  } catch {
    return undefined;
  }
}

/** Whether the update grows the claim's storage request. */
export function growsStorage(claim: ApiObject, old: ApiObject): boolean {
  const size = requestedStorage(claim), oldSize = requestedStorage(old);
  return !!size && !!oldSize && size.cmp(oldSize) > 0;
}

/** `storageClasses` is the StorageClass store, read up to date with `storage` before each decision. */
export function persistentVolumeClaimResize(storageClasses: () => ResourceStore | undefined, storage: Storage): AdmissionPlugin {
  const checkClass = async (attrs: AdmissionAttributes, store: ResourceStore | undefined, name: string): Promise<void> => {
    let allowed = false;
    if (store) {
      await syncToStorage(store, storage);
      const cls = store.cache.get(store.key('', name))?.object as { allowVolumeExpansion?: boolean | null } | undefined;
      allowed = cls?.allowVolumeExpansion === true;
    }
    if (!allowed) throw admissionForbidden(attrs, CLASS_MUST_ALLOW_MESSAGE);
  };
  return {
    name: 'PersistentVolumeClaimResize',
    // Anything but a claim's storage growing answers at once (no promise).
    validate(attrs) {
      const { served, operation, object, oldObject } = attrs;
      if (operation !== 'UPDATE' || served.def.group !== '' || served.def.plural !== 'persistentvolumeclaims' || attrs.ctx.subresource || !object || !oldObject) return;
      if (!growsStorage(object, oldObject)) return;
      if ((oldObject as Claim).status?.phase !== 'Bound') throw admissionForbidden(attrs, ONLY_BOUND_MESSAGE);
      const cls = storageClassOf(object), oldCls = storageClassOf(oldObject);
      if (cls === '' || cls !== oldCls) throw admissionForbidden(attrs, CLASS_MUST_ALLOW_MESSAGE);
      return checkClass(attrs, storageClasses(), cls);
    },
  };
}
