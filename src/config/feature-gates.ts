// Feature gates: one registry every part of the server asks (`featureGates.enabled(name)`), filled from
// `--feature-gates` with Kubernetes' lifecycle rules: alpha gates default off, beta gates default on, GA
// gates are locked on (setting them to false fails, setting them warns), deprecated gates warn, removed and
// unknown gates are refused.

export type Stage = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  stage: Stage;
  default: boolean;
  /** GA (and some deprecated) gates cannot be set to anything but their default. */
  lockToDefault?: boolean;
}

const alpha: FeatureSpec = { stage: 'ALPHA', default: false };
const betaOn: FeatureSpec = { stage: 'BETA', default: true };
const betaOff: FeatureSpec = { stage: 'BETA', default: false };
const ga: FeatureSpec = { stage: 'GA', default: true, lockToDefault: true };
const deprecatedOff: FeatureSpec = { stage: 'DEPRECATED', default: false };

/** The gates of a Kubernetes v1.32 API server this server knows, at their v1.32 stages. */
export const FEATURES_1_32: Readonly<Record<string, FeatureSpec>> = {
  AdmissionWebhookMatchConditions: ga,
  AggregatedDiscoveryEndpoint: ga,
  AnonymousAuthConfigurableEndpoints: betaOn,
  APIResponseCompression: betaOn,
  APIServerIdentity: betaOn,
  APIServerTracing: betaOn,
  APIServingWithRoutine: alpha,
  AuthorizeWithSelectors: betaOn,
  BtreeWatchCache: betaOn,
  CBORServingAndStorage: alpha,
  ClusterTrustBundle: alpha,
  ClusterTrustBundleProjection: alpha,
  ConcurrentWatchObjectDecode: betaOff,
  ConsistentListFromCache: betaOn,
  CoordinatedLeaderElection: alpha,
  DynamicResourceAllocation: betaOff,
  HPAScaleToZero: alpha,
  InPlacePodVerticalScaling: alpha,
  JobBackoffLimitPerIndex: betaOn,
  JobManagedBy: betaOn,
  JobPodReplacementPolicy: betaOn,
  JobSuccessPolicy: betaOn,
  KMSv1: deprecatedOff,
  MaxUnavailableStatefulSet: alpha,
  LegacyServiceAccountTokenCleanUp: ga,
  MultiCIDRServiceAllocator: betaOff,
  MutatingAdmissionPolicy: alpha,
  OpenAPIEnums: betaOn,
  PodDisruptionConditions: ga,
  PodLifecycleSleepAction: betaOn,
  RecoverVolumeExpansionFailure: betaOn,
  RelaxedDNSSearchValidation: alpha,
  RelaxedEnvironmentVariableValidation: betaOn,
  RemoteRequestHeaderUID: alpha,
  ResilientWatchCacheInitialization: betaOn,
  RetryGenerateName: ga,
  SeparateCacheWatchRPC: betaOn,
  ServiceAccountTokenNodeBinding: betaOn,
  SidecarContainers: betaOn,
  StatefulSetAutoDeletePVC: ga,
  StatefulSetStartOrdinal: ga,
  StorageVersionAPI: alpha,
  StorageVersionHash: betaOn,
  StorageVersionMigrator: alpha,
  StrictCostEnforcementForVAP: ga,
  StrictCostEnforcementForWebhooks: ga,
  StructuredAuthenticationConfiguration: betaOn,
  StructuredAuthorizationConfiguration: ga,
  UnauthenticatedHTTP2DOSMitigation: betaOn,
  VolumeAttributesClass: betaOff,
  WatchBookmark: ga,
  WatchCacheInitializationPostStartHook: betaOff,
  WatchFromStorageWithoutResourceVersion: betaOff,
  WatchList: betaOn,
};

/** Gates whose features went GA and whose deprecation window ended before v1.32: no longer accepted. */
export const REMOVED_FEATURES: ReadonlySet<string> = new Set([
  'APIPriorityAndFairness',
  'CronJobTimeZone',
  'CSIMigration',
  'DryRun',
  'EphemeralContainers',
  'PodSecurity',
  'RemoveSelfLink',
  'ServerSideApply',
  'ServerSideFieldValidation',
  'TTLAfterFinished',
]);

/** Pseudo-gates that switch every alpha (beta) gate not set explicitly. */
const ALL_ALPHA = 'AllAlpha';
const ALL_BETA = 'AllBeta';

export class FeatureGateError extends Error {}

export class FeatureGates {
  readonly #known: Readonly<Record<string, FeatureSpec>>;
  readonly #removed: ReadonlySet<string>;
  #enabled = new Map<string, boolean>();

  constructor(known: Readonly<Record<string, FeatureSpec>> = FEATURES_1_32, removed: ReadonlySet<string> = REMOVED_FEATURES) {
    this.#known = known;
    this.#removed = removed;
  }

  /** Whether `name` is on. Asking for a gate that is not registered is a programming error. */
  enabled(name: string): boolean {
    const spec = this.#known[name];
    if (!spec) throw new Error(`feature ${JSON.stringify(name)} is not registered in FeatureGate`);
    return this.#enabled.get(name) ?? spec.default;
  }

  /**
   * Applies `settings` on top of the current state, all or nothing. Returns the warnings to log; throws a
   * FeatureGateError naming every refused gate (unknown, removed, or a locked gate set away from its default).
   */
  set(settings: Record<string, boolean>): string[] {
    const errors: string[] = [];
    const warnings: string[] = [];
    const next = new Map(this.#enabled);
    const names = Object.keys(settings).sort();
    for (const name of names) {
      const value = settings[name];
      if (name === ALL_ALPHA || name === ALL_BETA) continue;
      const spec = this.#known[name];
      if (!spec) {
        errors.push(this.#removed.has(name)
          ? `unrecognized feature gate: ${name} (the feature is GA and its gate has been removed; drop it from --feature-gates)`
          : `unrecognized feature gate: ${name}`);
        continue;
      }
      if (spec.lockToDefault && value !== spec.default) {
        errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
        continue;
      }
      if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
      if (spec.stage === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
      next.set(name, value);
    }
    for (const [pseudo, stage] of [[ALL_ALPHA, 'ALPHA'], [ALL_BETA, 'BETA']] as const) {
      if (!(pseudo in settings)) continue;
      for (const [name, spec] of Object.entries(this.#known)) {
        if (spec.stage === stage && !(name in settings)) next.set(name, settings[pseudo]);
      }
    }
    if (errors.length) throw new FeatureGateError(errors.join('\n'));
    this.#enabled = next;
    return warnings;
  }

  /** Back to every gate's default, then `settings` (a server start). */
  reset(settings: Record<string, boolean> = {}): string[] {
    const saved = this.#enabled;
    this.#enabled = new Map();
    try {
      return this.set(settings);
    } catch (err) {
      this.#enabled = saved;
      throw err;
    }
  }

  /** Every known gate with its stage and default, as `--help` lists them (`Name=true|false (ALPHA - default=false)`). */
  describe(): string[] {
    const lines = [`${ALL_ALPHA}=true|false (ALPHA - default=false)`, `${ALL_BETA}=true|false (BETA - default=false)`];
    for (const name of Object.keys(this.#known).sort()) {
      const spec = this.#known[name];
      if (spec.lockToDefault) continue;
      lines.push(`${name}=true|false (${spec.stage} - default=${spec.default})`);
    }
    return lines;
  }

  /** The effective value of every known gate. */
  snapshot(): Record<string, boolean> {
    const out: Record<string, boolean> = {};
    for (const name of Object.keys(this.#known)) out[name] = this.enabled(name);
    return out;
  }
}

/** The process's gates. `startServer` resets them from its options, so servers in one process share them. */
export const featureGates = new FeatureGates();
