// StorageObjectInUseProtection (on by default in Kubernetes): a new PersistentVolume gets the finalizer
// `platform.io/pv-protection` and a new PersistentVolumeClaim `platform.io/pvc-protection`, so that neither
// goes while still in use; the pv-protection and pvc-protection controllers remove them once it is not.
// Only creates are looked at, as Kubernetes does.
import type { AdmissionPlugin } from './chain.ts';

export const PV_PROTECTION_FINALIZER = 'platform.io/pv-protection';
export const PVC_PROTECTION_FINALIZER = 'platform.io/pvc-protection';

const FINALIZER_BY_PLURAL: Record<string, string> = {
  persistentvolumes: PV_PROTECTION_FINALIZER,
  persistentvolumeclaims: PVC_PROTECTION_FINALIZER,
};

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    admit(attrs) {
      const { served, operation, object } = attrs;
      if (operation !== 'CREATE' || served.def.group !== '' || attrs.ctx.subresource || !object) return;
      const finalizer = FINALIZER_BY_PLURAL[served.def.plural];
      if (!finalizer) return;
      const finalizers = (object.metadata.finalizers ??= []);
      if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
    },
  };
}
