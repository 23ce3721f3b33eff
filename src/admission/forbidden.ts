// The 403 an admission plugin answers, named as Kubernetes' admission.NewForbidden names it: the request's
// name, else the object's name, else its generateName (no name is generated before admission), else `Unknown`.
import type { AdmissionAttributes } from './chain.ts';
import * as status from '../machinery/status.ts';

export function admissionForbidden(attrs: AdmissionAttributes, message: string): status.StatusError {
  const meta = attrs.object?.metadata;
  const name = attrs.name || meta?.name || meta?.generateName || 'Unknown';
  return status.forbidden(attrs.served.store.gr, name, message);
}
