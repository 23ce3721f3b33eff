// Turns the parsed `capstan serve` flags into server options.
import { readFile } from 'node:fs/promises';
import type { ServeOptions } from './flags.ts';
import type { ServerOptions } from '../server/server.ts';
import type { AccessControlOptions } from '../auth/access-control.ts';
import { FeatureGates } from './feature-gates.ts';
import { validateShowHiddenMetricsVersion } from '../server/metrics/apiserver.ts';
import { validateAuditOptions, type AuditOptions } from '../server/audit/options.ts';


export async function serverOptionsFromFlags(o: ServeOptions, changed: Set<string>): Promise<ServerOptions> {
  try {
    new FeatureGates().set(o.featureGates);
  } catch (err) {
    const given = Object.entries(o.featureGates).map(([k, v]) => `${k}=${v}`).join(',');
    throw new Error(`invalid argument ${JSON.stringify(given)} for "--feature-gates" flag: ${(err as Error).message}`);
  }
  const problems = [validateShowHiddenMetricsVersion(o.showHiddenMetricsForVersion), ...validateAuditOptions(auditOptions(o))].filter((p) => p !== undefined);
  if (problems.length) throw new Error(problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`);
  const opts: ServerOptions = {
    dataDir: o.dataDir,
    bindAddress: o.bindAddress,
    port: o.securePort,
    tlsCertFile: o.tlsCertFile,
    tlsPrivateKeyFile: o.tlsPrivateKeyFile,
    clientCaFile: o.clientCaFile,
    watchHistoryRetentionMs: o.watchHistoryRetention,
    runtimeConfig: o.runtimeConfig,
    featureGates: o.featureGates,
    shutdownTimeoutMs: o.shutdownTimeout,
    access: accessOptions(o, changed),
    controllers: o.controllers,
    clusterSigningDurationMs: o.clusterSigningDuration,
    showHiddenMetricsForVersion: o.showHiddenMetricsForVersion,
    audit: auditOptions(o),
    serviceClusterIPRange: o.serviceClusterIpRange,
    serviceNodePortRange: o.serviceNodePortRange,
  };
  if (o.etcdServers?.length) {
    const read = (f: string | undefined) => (f ? readFile(f) : Promise.resolve(undefined));
    const [ca, cert, key] = await Promise.all([read(o.etcdCafile), read(o.etcdCertfile), read(o.etcdKeyfile)]);
    // The etcd client (gRPC, protobuf) is loaded only for a server that uses it.
    const { EtcdStorage } = await import('../storage/etcd.ts');
    opts.storageEndpoints = o.etcdServers;
    opts.storage = await EtcdStorage.connect({ endpoints: o.etcdServers, prefix: o.etcdPrefix, tls: ca || cert || key ? { ca, cert, key } : undefined });
    opts.compactionIntervalMs = o.etcdCompactionInterval;
  }
  return opts;
}

/** Authentication and authorization flags. Those of the two authorization methods are passed only when
 *  given, so that access control can refuse --authorization-config combined with the others. */
function accessOptions(o: ServeOptions, changed: Set<string>): AccessControlOptions {
  const given = (name: string) => changed.has(name);
  return {
    anonymousAuth: o.anonymousAuth,
    tokenAuthFile: o.tokenAuthFile,
    modes: given('authorization-mode') ? o.authorizationMode : undefined,
    configFile: o.authorizationConfig,
    policyFile: o.authorizationPolicyFile,
    webhookConfigFile: o.authorizationWebhookConfigFile,
    webhookVersion: given('authorization-webhook-version') ? (o.authorizationWebhookVersion as 'v1' | 'v1beta1') : undefined,
    webhookCacheAuthorizedTtlMs: given('authorization-webhook-cache-authorized-ttl') ? o.authorizationWebhookCacheAuthorizedTtl : undefined,
    webhookCacheUnauthorizedTtlMs: given('authorization-webhook-cache-unauthorized-ttl') ? o.authorizationWebhookCacheUnauthorizedTtl : undefined,
    serviceAccountIssuers: o.serviceAccountIssuer,
    serviceAccountKeyFiles: o.serviceAccountKeyFile,
    serviceAccountSigningKeyFile: o.serviceAccountSigningKeyFile,
    serviceAccountMaxTokenExpirationSeconds: o.serviceAccountMaxTokenExpiration ? Math.floor(o.serviceAccountMaxTokenExpiration / 1000) : undefined,
    apiAudiences: o.apiAudiences,
    enableBootstrapTokenAuth: o.enableBootstrapTokenAuth,
  };
}

/** The audit flags as the server's audit options. */
function auditOptions(o: ServeOptions): AuditOptions {
  return {
    policyFile: o.auditPolicyFile, logPath: o.auditLogPath, logFormat: o.auditLogFormat,
    logMaxAge: o.auditLogMaxage, logMaxBackup: o.auditLogMaxbackup, logMaxSize: o.auditLogMaxsize, logCompress: o.auditLogCompress,
    logMode: o.auditLogMode, logVersion: o.auditLogVersion,
  };
}
