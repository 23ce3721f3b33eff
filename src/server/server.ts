// Assembles and runs the API server: PKI, storage, registry, controllers and the HTTPS listener.
import http2 from 'node:http2';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensurePki, buildKubeconfig, serverUrl, writeKubeconfig, pkiDir, PKI_FILES, type Pki } from '../pki/index.ts';
import type { Storage } from '../storage/interface.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { startCompactor, type Compactor } from '../storage/compactor.ts';
import { ResourceStore } from '../registry/store.ts';
import { ensureKubernetesService, parseServiceRanges, repairFromStore } from '../registry/service-allocation/setup.ts';
import { advertisedAddress, ensureKubernetesEndpoints } from './kubernetes-endpoints.ts';
import { ServiceAllocator } from '../registry/service-allocation/service-allocator.ts';
import { serviceKind } from '../apis/core/service.ts';
import { allKinds } from '../apis/index.ts';
import { apiServerContext, type KindDefinition } from '../apis/kind.ts';
import { buildSurface } from './apis.ts';
import { isComputed } from '../apis/computed-kind.ts';
import { AdmissionChain } from '../admission/chain.ts';
import { priorityAdmission } from '../admission/priority.ts';
import { defaultTolerationSeconds } from '../admission/default-toleration-seconds.ts';
import { storageObjectInUseProtection } from '../admission/storage-object-in-use-protection.ts';
import { namespaceLifecycle, SYSTEM_NAMESPACES } from '../admission/namespace-lifecycle.ts';
import { defaultIngressClassPlugin } from '../admission/default-ingress-class.ts';
import { defaultStorageClassPlugin } from '../admission/default-storage-class.ts';
import { persistentVolumeClaimResize } from '../admission/persistent-volume-claim-resize.ts';
import { serviceAccountAdmission } from '../admission/service-account.ts';
import { buildHandler } from './handler.ts';
import { AccessControl, type AccessControlOptions } from '../auth/access-control.ts';
import { ensureFlowControlBootstrap } from '../controllers/flowcontrol-bootstrap.ts';
import { startFlowSchemaStatus } from '../controllers/flowschema-status.ts';
import { keepSystemObjects } from './system-objects.ts';
import { startClusterRoleAggregation } from '../controllers/clusterrole-aggregation.ts';
import { bootstrapTokenControllers, controllerEnabled } from '../controllers/bootstrap-tokens.ts';
import { startNamespaceController } from '../controllers/namespace.ts';
import { startControllerManager } from '../controllers/manager.ts';
import { builtinControllers } from '../controllers/builtin.ts';
import { admittedCreate } from './admitted-create.ts';
import { resourceQuotaPlugin } from '../admission/resource-quota.ts';
import { WebhookAdmission } from '../admission/webhooks.ts';
import { isConflict } from '../machinery/status.ts';
import { featureGates } from '../config/feature-gates.ts';
import { apiServerMetrics, storedObjectCounts, validateShowHiddenMetricsVersion } from './metrics/apiserver.ts';
import { componentChecks } from './component-checks.ts';
import type { AuditOptions } from './audit/options.ts';

export interface ServerOptions {
  /** Where the database, PKI and kubeconfig live (default `./.capstan`). */
  dataDir?: string;
  /** Keep the store in memory (PKI and kubeconfig go to a temporary folder removed on stop). */
  inMemory?: boolean;
  bindAddress?: string;
  /** 0 picks a free port. */
  port?: number;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  watchHistoryRetentionMs?: number;
  /** How often history is compacted (default: the retention). */
  compactionIntervalMs?: number;
  runtimeConfig?: Record<string, string>;
  /** A storage backend to use instead of the embedded SQLite store (the etcd backend). */
  storage?: Storage;
  /** How long a stop waits for in-flight requests (default 60 s). */
  shutdownTimeoutMs?: number;
  /** Timing of the controller lease (tests shorten it). */
  leaderElection?: { leaseDurationSeconds?: number; retryPeriodMs?: number };
  /** Where log lines go; silent by default when embedded. */
  log?: (line: string) => void;
  /** `--feature-gates`: gate name to on/off, under Kubernetes v1.32's lifecycle rules (config/feature-gates.ts). */
  featureGates?: Record<string, boolean>;
  /** Authentication and authorization: tokens, service account keys, anonymous access, authorization modes
   *  or configuration file (src/auth/access-control.ts). */
  access?: AccessControlOptions;
  /** --controllers: `*` for the on-by-default controllers, `name` to add one, `-name` to remove one. */
  controllers?: string[];
  /** --cluster-signing-duration: the longest lifetime of certificates csrsigning issues (default one year). */
  clusterSigningDurationMs?: number;
  /** Resync period of the garbage collector, service account, root CA, CSR and quota controllers (tests shorten it). */
  controllerResyncMs?: number;
  /** How many recent events each watch cache keeps (tests shrink it to exercise resumes from storage history). */
  watchCacheEventWindow?: number;
  /** The etcd endpoints `storage` uses: each is a ComponentStatus `etcd-N` (the embedded store is `etcd-0`). */
  storageEndpoints?: string[];
  /** --show-hidden-metrics-for-version: only the previous minor release (`1.31`) is accepted. */
  showHiddenMetricsForVersion?: string;
  /** --audit-policy-file and --audit-log-*: events are written only when both a policy and a log are given. */
  audit?: AuditOptions;
  /** --service-cluster-ip-range: where Services' cluster IPs come from (default 10.0.0.0/24). */
  serviceClusterIPRange?: string;
  /** --service-node-port-range: where node ports come from (default 30000-32767). */
  serviceNodePortRange?: string;
  /** How often the `kubernetes` Service (default 10 s), the system namespaces and the flow control
   *  configuration (default 60 s) are put back if missing (tests shorten it). */
  systemObjectsResyncMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  kubeconfig: string;
  kubeconfigPath: string;
  caCertPem: string;
  /** The admin client certificate and key (user `capstan-admin`, group `system:masters`), the ones the kubeconfig
   *  holds: an embedding program's client can use them without reading the kubeconfig. */
  adminCertPem: string;
  adminKeyPem: string;
  /** Whether this server holds the controller lease and runs the controllers. */
  isLeader(): boolean;
  stop(): Promise<void>;
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? (() => {});
  // The gates are the process's: every part of the server asks the one registry.
  for (const warning of featureGates.reset(opts.featureGates ?? {})) log(warning);
  const temporary = opts.inMemory && !opts.dataDir;
  const dataDir = temporary ? await mkdtemp(join(tmpdir(), 'capstan-')) : resolve(opts.dataDir ?? '.capstan');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const bindAddress = opts.bindAddress ?? '127.0.0.1';
  const pki = temporary ? await temporaryPki(pkiDir(dataDir), bindAddress) : await ensurePki(pkiDir(dataDir), { hosts: [bindAddress] });
  // Access control reads its files and checks its flags first: a wrong one stops the start here.
  const access = await AccessControl.create({ options: opts.access ?? {}, pkiDir: pkiDir(dataDir), log });
  const hiddenMetricsProblem = validateShowHiddenMetricsVersion(opts.showHiddenMetricsForVersion);
  if (hiddenMetricsProblem) throw new Error(hiddenMetricsProblem);
  const serviceRanges = parseServiceRanges(opts.serviceClusterIPRange, opts.serviceNodePortRange);
  // The audit machinery loads only for a server that audits; a wrong policy stops the start.
  const auditor = opts.audit?.policyFile || opts.audit?.logPath ? await (await import('./audit/setup.ts')).startAudit(opts.audit, log) : undefined;
  const servingCert = opts.tlsCertFile ? await readFile(opts.tlsCertFile, 'utf8') : pki.servingCertPem;
  const servingKey = opts.tlsPrivateKeyFile ? await readFile(opts.tlsPrivateKeyFile, 'utf8') : pki.servingKeyPem;
  const clientCa = opts.clientCaFile ? await readFile(opts.clientCaFile, 'utf8') : pki.caCertPem;

  // Reads are served from the watch caches, so a file's page cache mostly holds index pages: 16 MiB of it
  // (the OS caches the file too) instead of 64 MiB that a start fills while it loads every object.
  const storage = opts.storage ?? (opts.inMemory ? SqliteStorage.open(':memory:') : SqliteStorage.open(join(dataDir, 'capstan.db'), { cacheSizeKiB: SQLITE_CACHE_KIB }));
  const retentionMs = opts.watchHistoryRetentionMs ?? 5 * 60_000;
  const compactor: Compactor = startCompactor(storage, { retentionMs, intervalMs: opts.compactionIntervalMs, onError: (e) => log(`compaction failed: ${e.message}`) });

  const serviceAllocator = new ServiceAllocator({ storage, ...serviceRanges, log });
  const kinds: KindDefinition[] = allKinds();
  // Computed kinds are never stored: they get no store and no watch cache.
  const stores = new Map<KindDefinition, ResourceStore>();
  for (const def of kinds) if (!isComputed(def)) stores.set(def, new ResourceStore(def, storage, undefined, def === serviceKind ? serviceAllocator.hooks() : undefined));
  if (opts.watchCacheEventWindow) for (const s of stores.values()) s.cache.eventWindow = opts.watchCacheEventWindow;
  await Promise.all([...stores.values()].map((s) => s.cache.start()));
  const storeFor = (group: string, plural: string) => [...stores.values()].find((s) => s.def.group === group && s.def.plural === plural)!;
  // What computed kinds read of this server; the controller manager is asked only once requests arrive.
  const components = componentChecks({ storage, storageEndpoints: opts.storageEndpoints, isLeader: () => controllerManager.elector.isLeader(), leases: storeFor('coordination.svc.io', 'leases') });
  const surface = buildSurface(kinds, opts.runtimeConfig ?? {}, (def) => stores.get(def)!, { components });
  const namespaces = storeFor('', 'namespaces');
  const storeIndex = new Map([...stores.values()].map((s) => [`${s.def.group}/${s.def.plural}`, s]));
  access.attach({ lookup: (group, resource) => storeIndex.get(`${group}/${resource}`), storage, surface });
  // Independent writes: they share commits. The server that opened its own embedded store is its only
  // writer, and nothing is being created yet: its Service allocation repair may free leaked values.
  const ensureFlowControl = () => ensureFlowControlBootstrap((group, resource) => storeIndex.get(`${group}/${resource}`));
  await Promise.all([
    ensureNamespaces(namespaces), access.ensureDefaultPolicy(), ensureFlowControl(),
    repairFromStore(serviceAllocator, storeFor('', 'services'), !opts.storage),
  ]);

  let listeningUrl = '';
  const webhooks = new WebhookAdmission({
    surface, namespaces, services: storeFor('', 'services'), authorize: (a) => access.authorize(a),
    mutatingConfigurations: storeFor('admissionregistration.svc.io', 'mutatingwebhookconfigurations'),
    validatingConfigurations: storeFor('admissionregistration.svc.io', 'validatingwebhookconfigurations'),
  });
  const admission = new AdmissionChain([namespaceLifecycle(() => namespaces), serviceAccountAdmission(() => storeFor('', 'serviceaccounts')), priorityAdmission(), defaultTolerationSeconds(), defaultStorageClassPlugin(() => storeFor('storage.svc.io', 'storageclasses'), storage), storageObjectInUseProtection(), defaultIngressClassPlugin(() => storeFor('networking.svc.io', 'ingressclasses'), storage), ...access.admissionPlugins()], webhooks, [persistentVolumeClaimResize(() => storeFor('storage.svc.io', 'storageclasses'), storage), resourceQuotaPlugin(() => storeFor('', 'resourcequotas'), storage)]);
  const watchRegistry = new Set<() => void>();
  const controllerManager = startControllerManager({
    leases: storeFor('coordination.svc.io', 'leases'),
    controllers: [
      () => startNamespaceController({ namespaces, stores: [...stores.values()], storage, log }),
      () => startFlowSchemaStatus({ flowSchemas: storeFor('flowcontrol.apiserver.svc.io', 'flowschemas'), priorityLevels: storeFor('flowcontrol.apiserver.svc.io', 'prioritylevelconfigurations'), log, resyncMs: opts.controllerResyncMs }),
      ...(controllerEnabled('clusterrole-aggregation', opts.controllers) ? [() => startClusterRoleAggregation({ clusterRoles: storeFor('rbac.authorization.svc.io', 'clusterroles'), log })] : []),
      ...bootstrapTokenControllers({ enabled: opts.controllers, secrets: storeFor('', 'secrets'), configMaps: storeFor('', 'configmaps'), server: () => listeningUrl, caPem: pki.caCertPem, log }),
      ...builtinControllers({
        stores: [...stores.values()], storage, storeFor, ca: { certPem: pki.caCertPem, keyPem: pki.caKeyPem },
        serviceAccountSigningKey: access.serviceAccountSigningKey,
        authorize: (a) => access.authorize(a), clusterSigningDurationMs: opts.clusterSigningDurationMs,
        createAdmitted: admittedCreate(surface, admission),
        resyncMs: opts.controllerResyncMs, enabled: opts.controllers, log,
      }),
    ],
    ...opts.leaderElection,
    log,
  });

  const metrics = apiServerMetrics({ showHiddenMetricsForVersion: opts.showHiddenMetricsForVersion });
  metrics.storedObjects(() => storedObjectCounts(stores.values()));
  // Set once a stop begins (read by the readiness check below).
  let stopping: Promise<void> | undefined;
  const handler = buildHandler({
    surface, storage, admission, watchRegistry, access, log, healthChecks: {
      live: { etcd: () => storage.ready() },
      // A stopping server is not ready: load balancers take it out while in-flight requests finish.
      ready: { 'etcd-readiness': () => storage.ready(), shutdown: async () => { if (stopping) throw new Error('shutting down'); } },
    },
    metrics, auditor,
  });
  const server = http2.createSecureServer({
    cert: servingCert, key: servingKey, ca: clientCa, allowHTTP1: true, requestCert: true, rejectUnauthorized: false,
    // Kubernetes' HTTP/2 windows: 256 KiB per stream for request bodies (node's default is 64 KiB), and the
    // connection's window grown for its 250 streams below. Watches queue their unsent events against the
    // session's memory, and past this limit new streams on the connection are refused.
    settings: { initialWindowSize: HTTP2_STREAM_WINDOW }, maxSessionMemory: HTTP2_MAX_SESSION_MEMORY_MB,
  }, (req, res) => {
    inFlight++;
    res.on('close', () => { if (--inFlight === 0) drained?.(); });
    handler(req, res);
  });
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const sockets = new Set<import('node:net').Socket>();
  server.on('secureConnection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  const port = await new Promise<number>((resolvePort, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, bindAddress, () => {
      server.off('error', reject);
      resolvePort((server.address() as { port: number }).port);
    });
  });
  const url = serverUrl(bindAddress, port);
  listeningUrl = url;
  // As Kubernetes' API server does from a controller, the `kubernetes` Service is made once the server
  // serves, after its first requests had the event loop: nothing waits for it. Its Endpoints follow (when
  // the server has an address an endpoint may hold: not a loopback one).
  const endpointAddress = advertisedAddress(bindAddress);
  if (!endpointAddress) log(`no address to advertise in the kubernetes Endpoints (bound to ${bindAddress}, and no other interface has one)`);
  const ensureEndpoints = () => (endpointAddress ? ensureKubernetesEndpoints(storeFor('', 'endpoints'), endpointAddress, port, !opts.storage, log) : Promise.resolve());
  let kubernetesService: Promise<void> | undefined;
  const kubernetesServiceTimer = setTimeout(() => {
    kubernetesService = Promise.all([
      ensureKubernetesService(storeFor('', 'services'), serviceAllocator, port, log)
        .catch((err) => log(`the kubernetes Service could not be created: ${(err as Error).message}`)),
      ensureEndpoints().catch((err) => log(`the kubernetes Endpoints could not be written: ${(err as Error).message}`)),
    ]).then(() => {});
  }, KUBERNETES_SERVICE_DELAY_MS);
  const systemObjects = keepSystemObjects([
    { what: 'the kubernetes Service', everyMs: opts.systemObjectsResyncMs ?? 10_000, ensure: () => ensureKubernetesService(storeFor('', 'services'), serviceAllocator, port, log) },
    { what: 'the kubernetes Endpoints', everyMs: opts.systemObjectsResyncMs ?? 10_000, ensure: ensureEndpoints },
    { what: 'the system namespaces and the flow control configuration', everyMs: opts.systemObjectsResyncMs ?? 60_000, ensure: () => Promise.all([ensureNamespaces(namespaces), ensureFlowControl()]) },
  ], log);
  const kubeconfig = buildKubeconfig({ server: url, caPem: pki.caCertPem, clientCertPem: pki.adminCertPem, clientKeyPem: pki.adminKeyPem });
  const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfigPath, kubeconfig);

  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
    s.setLocalWindowSize(HTTP2_CONNECTION_WINDOW);
  });

  const stop = () => stopping ??= (async () => {
    // Stop accepting, end watches, let in-flight requests finish, then close every connection.
    const closed = new Promise<void>((r) => server.close(() => r()));
    for (const end of [...watchRegistry]) end();
    if (inFlight > 0) {
      await new Promise<void>((r) => {
        drained = r;
        setTimeout(r, opts.shutdownTimeoutMs ?? 60_000).unref();
      });
    }
    for (const session of sessions) session.close();
    for (const socket of sockets) socket.destroy();
    await closed;
    clearTimeout(kubernetesServiceTimer);
    await kubernetesService;
    await systemObjects.stop();
    await controllerManager.stop();
    access.stop();
    webhooks.close();
    auditor?.close();
    compactor.stop();
    for (const s of stores.values()) s.cache.stop();
    await storage.close();
    if (temporary) await rm(dataDir, { recursive: true, force: true });
  })();

  return { url, port, dataDir, kubeconfig, kubeconfigPath, caCertPem: pki.caCertPem, adminCertPem: pki.adminCertPem, adminKeyPem: pki.adminKeyPem, isLeader: () => controllerManager.elector.isLeader(), stop };
}

const SQLITE_CACHE_KIB = 16 * 1024;
/** How long after it starts serving the server makes the `kubernetes` Service. */
const KUBERNETES_SERVICE_DELAY_MS = 100;
const HTTP2_STREAM_WINDOW = 256 * 1024;
const HTTP2_CONNECTION_WINDOW = 250 * HTTP2_STREAM_WINDOW;
const HTTP2_MAX_SESSION_MEMORY_MB = 256;

async function ensureNamespaces(namespaces: ResourceStore): Promise<void> {
  const revisions = await Promise.all(SYSTEM_NAMESPACES.map(async (name) => {
    if (namespaces.current('', name)) return 0;
    try {
      const created = await namespaces.create('', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { ctx: apiServerContext(), dryRun: false });
      return Number(created.object.metadata?.resourceVersion ?? 0);
    } catch (err) {
      if (!isConflict(err)) throw err;
      return 0;
    }
  }));
  // Admission finds namespaces in the cache, which on etcd may learn of the writes a moment later.
  await namespaces.cache.waitFor(Math.max(...revisions), NAMESPACE_CACHE_WAIT_MS);
}

const NAMESPACE_CACHE_WAIT_MS = 3000;

/** The certificates of temporary (in-memory) servers: generated by the first one in the process, then copied
 *  into each later one's folder (ensurePki checks them and regenerates what does not fit, such as a serving
 *  certificate for another address). Each server still writes its own kubeconfig. */
let temporaryPkiFiles: Promise<Record<string, string> | undefined> | undefined;

async function temporaryPki(dir: string, bindAddress: string): Promise<Pki> {
  const files = await temporaryPkiFiles;
  if (files) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await Promise.all(Object.entries(files).map(([name, text]) => writeFile(join(dir, name), text, { mode: name.endsWith('.key') ? 0o600 : 0o644 })));
  }
  const pki = ensurePki(dir, { hosts: [bindAddress] });
  if (!files) {
    // A failed first attempt leaves nothing to copy: the next server generates its own.
    temporaryPkiFiles = pki.then((p) => ({
      [PKI_FILES.caCert]: p.caCertPem, [PKI_FILES.caKey]: p.caKeyPem,
      [PKI_FILES.servingCert]: p.servingCertPem, [PKI_FILES.servingKey]: p.servingKeyPem,
      [PKI_FILES.adminCert]: p.adminCertPem, [PKI_FILES.adminKey]: p.adminKeyPem,
    }), () => undefined);
  }
  return pki;
}
