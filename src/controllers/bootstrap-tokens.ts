// The bootstrap token controllers (off by default, enabled with --controllers=*,tokencleaner,bootstrapsigner):
// tokencleaner deletes expired bootstrap token Secrets; bootstrapsigner keeps the kube-public ConfigMap
// `cluster-info` holding a `kubeconfig` (server and CA) and one detached JWS `jws-kubeconfig-<id>` per
// token usable for signing.
import { CompactSign } from '../auth/authn/jose.ts';
import YAML from '../machinery/yaml.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { isConflict, isNotFound, StatusError } from '../machinery/status.ts';
import { controllerContext } from './client.ts';
import {
  BOOTSTRAP_NAMESPACE, BOOTSTRAP_SECRET_PREFIX, BOOTSTRAP_SECRET_TYPE, BOOTSTRAP_TOKEN_PATTERN, BootstrapKeys,
  bootstrapTokenExpired, secretValue, type SecretLike,
} from '../auth/authn/bootstrap-token.ts';

export const CLUSTER_INFO_NAMESPACE = 'kube-public';
export const CLUSTER_INFO_NAME = 'cluster-info';
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';

/** Controllers Kubernetes' controller manager runs only when named in --controllers. */
export const OFF_BY_DEFAULT = new Set(['bootstrapsigner', 'tokencleaner']);

/** --controllers semantics: `*` is every on-by-default controller, `name` adds one, `-name` removes one. */
export function controllerEnabled(name: string, list: readonly string[] = ['*']): boolean {
  if (list.includes(`-${name}`)) return false;
  if (list.includes(name)) return true;
  return list.includes('*') && !OFF_BY_DEFAULT.has(name);
}

const RESYNC_MS = 5_000;

function bootstrapSecrets(secrets: ResourceStore): (SecretLike & ApiObject)[] {
  return secrets.cache.list(secrets.listPrefix(BOOTSTRAP_NAMESPACE))
    .map((c) => c.object as SecretLike & ApiObject)
    .filter((s) => s.type === BOOTSTRAP_SECRET_TYPE);
}

/** Runs `work` on every change of the watched stores and every few seconds, one run at a time. */
function loop(stores: ResourceStore[], work: () => Promise<number | undefined>, log: (line: string) => void, name: string): { stop(): void } {
  let stopped = false;
  let running = false;
  let again = false;
  let wake: NodeJS.Timeout | undefined;
  const run = () => {
    if (stopped) return;
    if (running) { again = true; return; }
    running = true;
    work()
      .then((nextInMs) => {
        clearTimeout(wake);
        // Wake up when the next token expires, as Kubernetes requeues at the expiration time.
        if (nextInMs !== undefined && !stopped) { wake = setTimeout(run, Math.max(0, nextInMs) + 10); wake.unref(); }
      })
      .catch((err) => log(`${name}: ${(err as Error).message}`))
      .finally(() => { running = false; if (again && !stopped) { again = false; run(); } });
  };
  const unwatch = stores.map((s) => {
    try {
      return s.cache.watch(s.cache.revision, { onEvent: run, onClose: () => {} });
    } catch {
      return () => {};
    }
  });
  const timer = setInterval(run, RESYNC_MS);
  timer.unref();
  run();
  return { stop() { stopped = true; clearInterval(timer); clearTimeout(wake); for (const u of unwatch) u(); } };
}

export function startTokenCleaner(deps: { secrets: ResourceStore; log(line: string): void }): { stop(): void } {
  const ctx = controllerContext('token-cleaner');
  return loop([deps.secrets], async () => {
    let next: number | undefined;
    const now = Date.now();
    for (const secret of bootstrapSecrets(deps.secrets)) {
      if (secret.metadata?.deletionTimestamp) continue;
      if (bootstrapTokenExpired(secret, now)) {
        try {
          await deps.secrets.delete(BOOTSTRAP_NAMESPACE, secret.metadata.name!, { ctx, dryRun: false, preconditions: { uid: secret.metadata.uid } });
        } catch (err) {
          if (!(isNotFound(err) || isConflict(err))) throw err;
        }
        continue;
      }
      const expires = Date.parse(secretValue(secret, BootstrapKeys.expiration));
      if (!Number.isNaN(expires)) next = Math.min(next ?? Infinity, expires - now);
    }
    return next;
  }, deps.log, 'tokencleaner');
}

/** The detached JWS (`header..signature`, HS256 keyed by the whole token) of `content`. */
export async function detachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(content))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(new TextEncoder().encode(`${tokenId}.${tokenSecret}`));
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}

/** The kubeconfig cluster-info carries: the server and its CA, no users (as kubeadm writes it). */
export function clusterInfoKubeconfig(server: string, caPem: string): string {
  return YAML.stringify({
    apiVersion: 'v1',
    clusters: [{ cluster: { 'certificate-authority-data': Buffer.from(caPem).toString('base64'), server }, name: '' }],
    contexts: null,
    'current-context': '',
    kind: 'Config',
    preferences: {},
    users: null,
  });
}

export interface BootstrapSignerDeps {
  secrets: ResourceStore;
  configMaps: ResourceStore;
  /** The server's URL ('' until it listens) and CA, for the kubeconfig cluster-info publishes. */
  server(): string;
  caPem: string;
  log(line: string): void;
}

export function startBootstrapSigner(deps: BootstrapSignerDeps): { stop(): void } {
  const ctx = controllerContext('bootstrap-signer');
  return loop([deps.secrets, deps.configMaps], async () => {
    const existing = deps.configMaps.current(CLUSTER_INFO_NAMESPACE, CLUSTER_INFO_NAME)?.object as ApiObject | undefined;
    const data: Record<string, string> = { ...((existing?.data as Record<string, string> | undefined) ?? {}) };
    if (!data.kubeconfig) {
      const server = deps.server();
      if (!server) return 1000;
      data.kubeconfig = clusterInfoKubeconfig(server, deps.caPem);
    }
    const wanted: Record<string, string> = {};
    let next: number | undefined;
    const now = Date.now();
    for (const secret of bootstrapSecrets(deps.secrets)) {
      if (secret.metadata?.deletionTimestamp) continue;
      if (secret.metadata?.name?.slice(BOOTSTRAP_SECRET_PREFIX.length) !== secretValue(secret, BootstrapKeys.tokenId)) continue;
      if (secretValue(secret, BootstrapKeys.usageSigning) !== 'true' || bootstrapTokenExpired(secret, now)) continue;
      const id = secretValue(secret, BootstrapKeys.tokenId);
      const token = `${id}.${secretValue(secret, BootstrapKeys.tokenSecret)}`;
      if (!BOOTSTRAP_TOKEN_PATTERN.test(token)) continue;
      wanted[JWS_KEY_PREFIX + id] = await detachedSignature(data.kubeconfig, id, secretValue(secret, BootstrapKeys.tokenSecret));
      const expires = Date.parse(secretValue(secret, BootstrapKeys.expiration));
      if (!Number.isNaN(expires)) next = Math.min(next ?? Infinity, expires - now);
    }
    for (const key of Object.keys(data)) if (key.startsWith(JWS_KEY_PREFIX) && !(key in wanted)) delete data[key];
    Object.assign(data, wanted);
    const current = (existing?.data as Record<string, string> | undefined) ?? {};
    if (existing && JSON.stringify(Object.entries(current).sort()) === JSON.stringify(Object.entries(data).sort())) return next;
    if (!existing) {
      try {
        await deps.configMaps.create(CLUSTER_INFO_NAMESPACE, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: CLUSTER_INFO_NAME }, data } as ApiObject, { ctx, dryRun: false });
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
      return next;
    }
    await deps.configMaps.update(CLUSTER_INFO_NAMESPACE, (cur) => {
      if (!cur) throw new StatusError(404, 'NotFound', 'gone');
      return { ...cur, data: { ...data } };
    }, { ctx, dryRun: false, subresource: '', allowCreate: false, name: CLUSTER_INFO_NAME });
    return next;
  }, deps.log, 'bootstrapsigner');
}

/** The bootstrap token controllers --controllers enables, ready for the controller manager. */
export function bootstrapTokenControllers(deps: BootstrapSignerDeps & { enabled?: readonly string[] }): (() => { stop(): void })[] {
  const out: (() => { stop(): void })[] = [];
  if (controllerEnabled('tokencleaner', deps.enabled)) out.push(() => startTokenCleaner(deps));
  if (controllerEnabled('bootstrapsigner', deps.enabled)) out.push(() => startBootstrapSigner(deps));
  return out;
}
