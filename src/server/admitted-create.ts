// The creates the server's own controllers make where Kubernetes' controllers make them through the API (a
// ReplicaSet's pods, a Deployment's ReplicaSets): admitted as a request's would be, so that the built-in
// plugins and the webhooks see and shape them (a pod gets its service account token, its priority and its
// tolerations, a quota counts it), then written to the registry.
import type { AdmittedCreate } from '../controllers/client.ts';
import type { AdmissionChain } from '../admission/chain.ts';
import { writeOptions } from '../admission/operation-options.ts';
import * as status from '../machinery/status.ts';
import type { ApiSurface } from './apis.ts';

export function admittedCreate(surface: ApiSurface, admission: AdmissionChain): AdmittedCreate {
  return async (group, plural, namespace, object, ctx) => {
    // The kind's stored version, as the controllers write it.
    const served = surface.served.find((s) => s.def.group === group && s.def.plural === plural && s.version.name === s.def.storageVersion);
    if (!served) throw status.notFound({ group, resource: plural }, object.metadata.name ?? '');
    const attrs = { operation: 'CREATE' as const, served, namespace, name: object.metadata.name ?? '', object, ctx, options: writeOptions('CreateOptions', { dryRun: false }) };
    await admission.admit(attrs);
    const result = await served.store.create(namespace, attrs.object!, {
      ctx, dryRun: false,
      validateAdmission: (obj) => admission.validates ? admission.validate({ ...attrs, object: obj }) : undefined,
    });
    return result.object;
  };
}
