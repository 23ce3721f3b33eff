// The token controller (Kubernetes' serviceaccount-token-controller): a Secret of type
// platform.io/service-account-token that names a service account gets that account's secret-based token,
// the cluster CA and the namespace in its data; one naming an account that does not exist (or another
// account of the same name) is deleted, and so are an account's token Secrets when the account goes.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { SigningKey } from '../auth/authn/service-account-keys.ts';
import {
  SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_TYPE, SERVICE_ACCOUNT_UID_ANNOTATION, signLegacyToken,
} from '../auth/authn/legacy-service-account-tokens.ts';
import { controllerContext } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { isConflict, isNotFound } from '../machinery/status.ts';

export interface ServiceAccountTokensControllerDeps {
  secrets: ResourceStore;
  serviceAccounts: ResourceStore;
  signingKey: SigningKey;
  caPem: string;
  log(line: string): void;
  resyncMs?: number;
}

interface TokenSecret extends ApiObject {
  type?: string;
  data?: Record<string, string>;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function startServiceAccountTokensController(deps: ServiceAccountTokensControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('tokens-controller');
  const key = (namespace: string, name: string) => `${namespace}/${name}`;

  const queue = new WorkQueue(async (item) => {
    const [namespace, name] = item.split('/');
    const cached = deps.secrets.current(namespace, name);
    const secret = cached?.object as TokenSecret | undefined;
    if (!cached || !secret || secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE || secret.metadata.deletionTimestamp) return;
    const annotations = secret.metadata.annotations ?? {};
    const saName = annotations[SERVICE_ACCOUNT_NAME_ANNOTATION] ?? '';
    const wantedUid = annotations[SERVICE_ACCOUNT_UID_ANNOTATION] ?? '';
    // An account written before the Secret must be seen before the Secret is judged to have none.
    if (deps.serviceAccounts.cache.revision < cached.modRevision) await deps.serviceAccounts.cache.waitFor(cached.modRevision, 2000);
    const sa = deps.serviceAccounts.current(namespace, saName)?.object as ApiObject | undefined;
    if (!sa || (wantedUid && sa.metadata.uid !== wantedUid)) {
      try {
        await deps.secrets.delete(namespace, name, { ctx, dryRun: false, preconditions: { uid: secret.metadata.uid } });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
      return;
    }
    const data = secret.data ?? {};
    const complete = data.token && data['ca.crt'] === b64(deps.caPem) && data.namespace === b64(namespace) && wantedUid === sa.metadata.uid;
    if (complete) return;
    const token = data.token ? Buffer.from(data.token, 'base64').toString('utf8')
      : await signLegacyToken(deps.signingKey, { namespace, name: saName, uid: sa.metadata.uid! }, name);
    await updateObject(deps.secrets, ctx, namespace, name, (obj) => {
      const o = obj as TokenSecret;
      o.data = { ...(o.data ?? {}), 'ca.crt': b64(deps.caPem), namespace: b64(namespace), token: b64(token) };
      o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [SERVICE_ACCOUNT_NAME_ANNOTATION]: saName, [SERVICE_ACCOUNT_UID_ANNOTATION]: sa.metadata.uid! };
    }, { uid: secret.metadata.uid });
  }, { name: 'serviceaccount-token controller', log: deps.log });

  const tokenSecretsOf = (namespace: string, saName: string) => deps.secrets.cache.list(deps.secrets.listPrefix(namespace))
    .filter((c) => (c.object as TokenSecret).type === SERVICE_ACCOUNT_TOKEN_TYPE
      && (c.object as TokenSecret).metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] === saName);

  const informer = startInformer({
    stores: [deps.secrets, deps.serviceAccounts],
    onEvent(store, e) {
      if (store === deps.secrets) { if (!e.deleted) queue.add(key(e.current.namespace, e.current.name)); return; }
      // A new, changed or deleted account: its token Secrets are looked at again.
      for (const c of tokenSecretsOf(e.current.namespace, e.current.name)) queue.add(key(c.namespace, c.name));
    },
    resync() {
      for (const c of deps.secrets.cache.unordered()) if ((c.object as TokenSecret).type === SERVICE_ACCOUNT_TOKEN_TYPE) queue.add(key(c.namespace, c.name));
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'serviceaccount-token controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
