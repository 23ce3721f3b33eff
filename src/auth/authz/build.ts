// Builds the server's authorizer from the command line (--authorization-mode and its files) or from the
// authorization configuration file, which is reloaded when it changes and at least every minute.
import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { alwaysAllow, alwaysDeny, privilegedGroups } from './simple.ts';
import { unionAuthorizer } from './union.ts';
import { abacAuthorizer, parseAbacPolicies } from './abac.ts';
import { webhookAuthorizer } from './webhook.ts';
import { parseAuthorizationConfiguration, AuthorizationConfigError, DEFAULT_AUTHORIZED_TTL_MS, DEFAULT_UNAUTHORIZED_TTL_MS, type AuthorizerEntry, type WebhookSettings } from './config-file.ts';
import { loadWebhookKubeconfig, type WebhookConnection } from '../kubeconfig-client.ts';
import type { Attributes, Authorizer, Decision, RulesResult } from './types.ts';
import type { UserInfo } from '../../apis/kind.ts';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export const DEFAULT_AUTHORIZATION_MODES = ['Node', 'RBAC'];
export const CONFIG_RELOAD_INTERVAL_MS = 60_000;

export interface AuthorizationFlags {
  /** --authorization-mode as given; undefined when not given (then Node,RBAC). */
  modes?: string[];
  policyFile?: string;
  webhookConfigFile?: string;
  webhookVersion?: 'v1' | 'v1beta1';
  webhookCacheAuthorizedTtlMs?: number;
  webhookCacheUnauthorizedTtlMs?: number;
  /** --authorization-config. */
  configFile?: string;
  /** Test hook: how often the configuration file is read again (default one minute). */
  configReloadIntervalMs?: number;
}

/** What the authorizers of each type are made from (RBAC and Node read the registry). */
export interface AuthorizerFactories {
  rbac(): Authorizer;
  node(): Authorizer;
  log(line: string): void;
}

/** Start-up checks of the flags, with Kubernetes' messages; throws on the first problem. */
export function validateAuthorizationFlags(f: AuthorizationFlags): void {
  const webhookFlags = f.webhookConfigFile !== undefined || f.webhookVersion !== undefined || f.webhookCacheAuthorizedTtlMs !== undefined || f.webhookCacheUnauthorizedTtlMs !== undefined;
  if (f.configFile !== undefined) {
    if (f.modes !== undefined || webhookFlags) {
      throw new Error('--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
    }
    if (f.policyFile !== undefined) throw new Error('--authorization-policy-file can not be specified with --authorization-config: ABAC is not available in the authorization configuration file');
    return;
  }
  const modes = f.modes ?? DEFAULT_AUTHORIZATION_MODES;
  if (!modes.length) throw new Error('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (seen.has(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  if (seen.has('ABAC') && !f.policyFile) throw new Error("authorization-mode ABAC's authorization policy file not passed");
  if (seen.has('Webhook') && !f.webhookConfigFile) throw new Error("authorization-mode Webhook's authorization config file not passed");
  if (f.policyFile && !seen.has('ABAC')) throw new Error('cannot specify --authorization-policy-file without mode ABAC');
  if (f.webhookConfigFile && !seen.has('Webhook')) throw new Error('cannot specify --authorization-webhook-config-file without mode Webhook');
}

/** The authorizers of --authorization-mode, in order. */
export function authorizersFromModes(f: AuthorizationFlags, make: AuthorizerFactories): Authorizer[] {
  return (f.modes ?? DEFAULT_AUTHORIZATION_MODES).map((mode): Authorizer => {
    switch (mode) {
      case 'AlwaysAllow': return alwaysAllow;
      case 'AlwaysDeny': return alwaysDeny;
      case 'RBAC': return make.rbac();
      case 'Node': return make.node();
      case 'ABAC': return abacAuthorizer(parseAbacPolicies(readFileSync(f.policyFile!, 'utf8'), f.policyFile));
      case 'Webhook': {
        const connection = loadWebhookKubeconfig(f.webhookConfigFile!);
        // Command-line webhooks always answer no opinion when the call fails, as Kubernetes' do.
        return webhookAuthorizer({
          name: 'webhook', connection, subjectAccessReviewVersion: f.webhookVersion ?? 'v1beta1',
          authorizedTTLMs: f.webhookCacheAuthorizedTtlMs ?? DEFAULT_AUTHORIZED_TTL_MS,
          unauthorizedTTLMs: f.webhookCacheUnauthorizedTtlMs ?? DEFAULT_UNAUTHORIZED_TTL_MS,
          timeoutMs: 30_000, failurePolicy: 'NoOpinion', log: make.log,
        });
      }
      default: throw new Error(`authorization-mode ${JSON.stringify(mode)} is not a valid mode`);
    }
  });
}

/** In-cluster configuration: the service account token and CA mounted into pods, and the service address. */
function inClusterConnection(): WebhookConnection {
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const dir = '/var/run/secrets/platform.io/serviceaccount';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  return {
    server: new URL(`https://${hostPart}:${port}/apis/authorization.svc.io/v1/subjectaccessreviews`),
    ca: existsSync(`${dir}/ca.crt`) ? readFileSync(`${dir}/ca.crt`, 'utf8') : undefined,
    token: readFileSync(`${dir}/token`, 'utf8').trim(),
    insecureSkipTlsVerify: false,
  };
}

function webhookFromSettings(name: string, w: WebhookSettings, log: (line: string) => void) {
  const connection = w.connectionInfo.type === 'KubeConfigFile' ? loadWebhookKubeconfig(w.connectionInfo.kubeConfigFile) : inClusterConnection();
  return webhookAuthorizer({
    name, connection, subjectAccessReviewVersion: w.subjectAccessReviewVersion,
    authorizedTTLMs: w.authorizedTTLMs, unauthorizedTTLMs: w.unauthorizedTTLMs, timeoutMs: w.timeoutMs,
    failurePolicy: w.failurePolicy, matchConditions: w.matchConditions, log,
  });
}

/** The authorizers a configuration file lists, in order. */
export function authorizersFromConfig(entries: readonly AuthorizerEntry[], make: AuthorizerFactories): Authorizer[] {
  return entries.map((e) => {
    if (e.type === 'RBAC') return make.rbac();
    if (e.type === 'Node') return make.node();
    return webhookFromSettings(e.name, e.webhook!, make.log);
  });
}

function closeAll(authorizers: readonly Authorizer[]): void {
  for (const a of authorizers) (a as { close?: () => void }).close?.();
}

/**
 * The server's authorizer: system:masters first, then the configured chain. With a configuration file the
 * chain is rebuilt when the file changes (a file that does not load keeps the previous chain, and says so).
 */
export class ServerAuthorizer implements Authorizer {
  readonly name = 'server';
  private chain: Authorizer[] = [];
  private union: Authorizer = unionAuthorizer([]);
  private readonly privileged = privilegedGroups();
  private readonly flags: AuthorizationFlags;
  private readonly make: AuthorizerFactories;
  private lastText: string | undefined;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reloading: Promise<void> | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** Authorizer types in the current chain ('RBAC', 'Node', 'Webhook' ...). */
  types = new Set<string>();

  constructor(flags: AuthorizationFlags, make: AuthorizerFactories) {
    this.flags = flags;
    this.make = make;
  }

  /** Builds the first chain; throws (a start-up error) when the flags or the file are wrong. */
  start(): void {
    validateAuthorizationFlags(this.flags);
    if (this.flags.configFile === undefined) {
      this.swap(authorizersFromModes(this.flags, this.make), this.flags.modes ?? DEFAULT_AUTHORIZATION_MODES);
      return;
    }
    const path = this.flags.configFile;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`failed to read the authorization configuration file ${path}: ${(err as Error).message}`);
    }
    const config = this.load(text, path);
    this.lastText = text;
    this.swap(authorizersFromConfig(config.authorizers, this.make), config.authorizers.map((a) => a.type));
    this.watchFile(path);
  }

  private load(text: string, path: string) {
    try {
      return parseAuthorizationConfiguration(text);
    } catch (err) {
      if (err instanceof AuthorizationConfigError) throw new Error(`invalid authorization configuration file ${path}: ${err.message}`);
      throw err;
    }
  }

  private swap(next: Authorizer[], types: readonly string[]): void {
    const old = this.chain;
    this.chain = next;
    this.union = unionAuthorizer(next);
    this.types = new Set(types);
    closeAll(old);
  }

  private watchFile(path: string): void {
    const interval = this.flags.configReloadIntervalMs ?? CONFIG_RELOAD_INTERVAL_MS;
    this.timer = setInterval(() => void this.reload(), interval);
    this.timer.unref();
    // Watch the folder: editors and config management replace the file rather than write it in place.
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
        if (file && file.toString() !== basename(path)) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.reload(), 50);
        this.debounce.unref();
      });
      this.watcher.on('error', () => { this.watcher?.close(); this.watcher = undefined; });
    } catch {
      // The periodic reload still picks changes up.
    }
  }

  /** Reads the configuration file again; answers whether a new chain is in place. */
  reload(): Promise<void> {
    this.reloading ??= this.reloadOnce().finally(() => { this.reloading = undefined; });
    return this.reloading;
  }

  private async reloadOnce(): Promise<void> {
    const path = this.flags.configFile;
    if (!path) return;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      this.make.log(`error reloading authorization configuration file ${path}, keeping the previous configuration: ${(err as Error).message}`);
      return;
    }
    if (text === this.lastText) return;
    let next: Authorizer[];
    let types: string[];
    try {
      const config = this.load(text, path);
      next = authorizersFromConfig(config.authorizers, this.make);
      types = config.authorizers.map((a) => a.type);
    } catch (err) {
      this.make.log(`error reloading authorization configuration file ${path}, keeping the previous configuration: ${(err as Error).message}`);
      this.lastText = text;
      return;
    }
    this.lastText = text;
    this.swap(next, types);
    this.make.log(`authorization configuration reloaded from ${path}`);
  }

  async authorize(attrs: Attributes): Promise<Decision> {
    const p = this.privileged.authorize(attrs) as Decision;
    if (p.decision === 'allow') return p;
    return this.union.authorize(attrs);
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    return this.union.rulesFor!(user, namespace);
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.debounce);
    this.watcher?.close();
    closeAll(this.chain);
  }
}
