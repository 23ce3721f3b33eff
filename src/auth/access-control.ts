// Access control for one server: authentication (client certificates, static, service account and
// bootstrap tokens, anonymous), impersonation, authorization (the configured authorizer chain behind the
// system:masters bypass), the review endpoints and TokenRequest, the RBAC admission checks, and the
// default policy.
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { apiServerContext, type UserInfo } from '../apis/kind.ts';
import type { AdmissionPlugin } from '../admission/chain.ts';
import type { Storage } from '../storage/interface.ts';
import type { ApiSurface } from '../server/apis.ts';
import type { Request, Response } from '../server/respond.ts';
import type { RequestInfo } from '../server/requestinfo.ts';
import { RequestAuthenticator, type TokenReviewResult } from './authn/request.ts';
import { parseTokenFile, staticTokenAuthenticator, type TokenAuthenticator } from './authn/token-file.ts';
import { bootstrapTokenAuthenticator, type SecretLike } from './authn/bootstrap-token.ts';
import { loadOrCreateSigningKey, loadVerificationKeys, verificationKeyOf, type SigningKey } from './authn/service-account-keys.ts';
import { serviceAccountTokenAuthenticator, TokenIssuer } from './authn/service-account-tokens.ts';
import { LAST_USED_LABEL, legacyServiceAccountTokenAuthenticator, type LegacyLookup, type LegacySecret, type LegacyServiceAccount } from './authn/legacy-service-account-tokens.ts';
import { updateObject } from '../registry/update-object.ts';
import { impersonate, impersonationHeaders, wantsImpersonation } from './impersonation.ts';
import { ServerAuthorizer, type AuthorizationFlags } from './authz/build.ts';
import { forbiddenError } from './authz/forbidden.ts';
import { nodeAuthorizer } from './authz/node.ts';
import { rbacAuthorizer } from './authz/rbac/authorizer.ts';
import { RuleResolver } from './authz/rbac/resolver.ts';
import type { Attributes, Decision, RulesResult } from './authz/types.ts';
import { nodeRestrictionAdmission, rbacEscalationAdmission } from './admission.ts';
import { serveReview, AUTHENTICATION_GROUP, AUTHORIZATION_GROUP } from './reviews.ts';
import { serveTokenRequest } from './token-request.ts';
import { CacheFreshness, PodsByNode, rbacStores, storeBindingLookup, storeRbacSource, type StoreLookup } from './stores.ts';
import { SYSTEM_MASTERS } from './user.ts';
import { ensureDefaultPolicy } from './default-policy.ts';
import { fieldSelectorRequiresExactMatch, parseFieldSelector } from '../machinery/fields.ts';
import { isValidPathSegmentName } from '../machinery/validation/strings.ts';
import { unescaped } from '../machinery/unescape.ts';

/** What admit found, for the audit event: the authenticated and impersonated users and the authorization decision. */
export interface AdmitTrace {
  user?: UserInfo;
  impersonatedUser?: UserInfo;
  decision?: 'allow' | 'forbid';
  reason?: string;
}

/** The default issuer of service account tokens (and so the default API audience). */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const SERVICE_ACCOUNT_KEY_FILE = 'sa.key';

export interface AccessControlOptions extends AuthorizationFlags {
  /** --anonymous-auth (default true). */
  anonymousAuth?: boolean;
  tokenAuthFile?: string;
  serviceAccountSigningKeyFile?: string;
  serviceAccountKeyFiles?: string[];
  serviceAccountIssuers?: string[];
  serviceAccountMaxTokenExpirationSeconds?: number;
  apiAudiences?: string[];
  enableBootstrapTokenAuth?: boolean;
}

export interface AccessControlDeps {
  options: AccessControlOptions;
  /** Where the generated service account signing key lives (the PKI folder). */
  pkiDir: string;
  log(line: string): void;
}

/** What access control reads once the registry is up. */
export interface RegistryAccess {
  lookup: StoreLookup;
  storage: Storage;
  surface: ApiSurface;
}

const REVIEW_KINDS = new Set([
  `${AUTHENTICATION_GROUP}/tokenreviews`, `${AUTHENTICATION_GROUP}/selfsubjectreviews`,
  `${AUTHORIZATION_GROUP}/subjectaccessreviews`, `${AUTHORIZATION_GROUP}/selfsubjectaccessreviews`,
  `${AUTHORIZATION_GROUP}/localsubjectaccessreviews`, `${AUTHORIZATION_GROUP}/selfsubjectrulesreviews`,
]);

export class AccessControl {
  readonly authenticator: RequestAuthenticator;
  readonly authorizer: ServerAuthorizer;
  readonly resolver: RuleResolver;
  readonly issuer: TokenIssuer;
  readonly apiAudiences: string[];
  private readonly deps: AccessControlDeps;
  private registry: RegistryAccess | undefined;
  private readonly lookup: StoreLookup = (group, resource) => this.registry?.lookup(group, resource);
  private readonly freshness = new CacheFreshness({ currentRevision: () => this.registry ? this.registry.storage.currentRevision() : Promise.resolve(0) });
  private readonly pods: PodsByNode;
  /** The key service account tokens are signed with: the token controller signs secret-based ones with it. */
  serviceAccountSigningKey: SigningKey | undefined;

  private constructor(deps: AccessControlDeps, tokenAuthenticators: TokenAuthenticator[], issuer: TokenIssuer, apiAudiences: string[]) {
    this.deps = deps;
    this.issuer = issuer;
    this.apiAudiences = apiAudiences;
    this.authenticator = new RequestAuthenticator({ tokenAuthenticators, apiAudiences, anonymous: deps.options.anonymousAuth ?? true, log: deps.log });
    const source = storeRbacSource(this.lookup);
    this.resolver = new RuleResolver(source);
    this.pods = new PodsByNode(this.lookup);
    const rbac = rbacAuthorizer(source);
    const node = nodeAuthorizer(this.pods);
    this.authorizer = new ServerAuthorizer(deps.options, { rbac: () => rbac, node: () => node, log: deps.log });
  }

  /**
   * Reads keys and token files and builds the authorizer chain; throws a start-up error when the flags or
   * files are wrong. Nothing is read from the registry until `attach`.
   */
  static async create(deps: AccessControlDeps): Promise<AccessControl> {
    const o = deps.options;
    const issuers = o.serviceAccountIssuers?.length ? o.serviceAccountIssuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
    const apiAudiences = o.apiAudiences?.length ? o.apiAudiences : [issuers[0]];
    const signingPath = o.serviceAccountSigningKeyFile ?? join(deps.pkiDir, SERVICE_ACCOUNT_KEY_FILE);
    const signing = await loadOrCreateSigningKey(signingPath, o.serviceAccountSigningKeyFile === undefined);
    const keys = o.serviceAccountKeyFiles?.length ? await loadVerificationKeys(o.serviceAccountKeyFiles) : [verificationKeyOf(signing)];

    const tokenAuthenticators: TokenAuthenticator[] = [];
    if (o.tokenAuthFile) {
      let text: string;
      try { text = await readFile(o.tokenAuthFile, 'utf8'); } catch (err) { throw new Error(`cannot read --token-auth-file ${o.tokenAuthFile}: ${(err as Error).message}`); }
      tokenAuthenticators.push(staticTokenAuthenticator(parseTokenFile(text, o.tokenAuthFile, deps.log)));
    }
    const ac = new AccessControl(deps, tokenAuthenticators, new TokenIssuer(signing, issuers[0]), apiAudiences);
    tokenAuthenticators.push(serviceAccountTokenAuthenticator({ keys, issuers, apiAudiences, lookup: storeBindingLookup(ac.lookup, ac.freshness) }));
    tokenAuthenticators.push(legacyServiceAccountTokenAuthenticator({ keys, apiAudiences, lookup: legacyLookup(ac.lookup, ac.freshness, deps.log) }));
    ac.serviceAccountSigningKey = signing;
    if (o.enableBootstrapTokenAuth) {
      const secrets = () => ac.lookup('', 'secrets');
      const bootstrap = bootstrapTokenAuthenticator((ns, name) => secrets()?.current(ns, name)?.object as SecretLike | undefined, deps.log);
      tokenAuthenticators.push({
        async authenticateToken(token, audiences) {
          await ac.freshness.catchUp([secrets()]);
          return bootstrap.authenticateToken(token, audiences);
        },
      });
    }
    ac.authorizer.start();
    return ac;
  }

  /** Creates the default RBAC roles and bindings and reconciles existing ones (after `attach`). */
  ensureDefaultPolicy(): Promise<void> {
    return ensureDefaultPolicy(this.lookup);
  }

  /** Connects access control to the registry (roles, bindings, service accounts, pods, secrets). */
  attach(registry: RegistryAccess): void {
    this.registry = registry;
  }

  /**
   * Decides whether the server's authorizers allow `attrs`. Everyone but system:masters is judged on caches
   * that have caught up with storage, so that a binding counts from the moment it was written.
   */
  async authorize(attrs: Attributes): Promise<Decision> {
    if (!attrs.user.groups.includes(SYSTEM_MASTERS)) await this.catchUp();
    return this.authorizer.authorize(attrs);
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    return this.authorizer.rulesFor(user, namespace);
  }

  private catchUp(): Promise<void> {
    const stores = [];
    if (this.authorizer.types.has('RBAC')) stores.push(...rbacStores(this.lookup));
    if (this.authorizer.types.has('Node')) stores.push(...this.pods.stores());
    return this.freshness.catchUp(stores);
  }

  /** Authentication, impersonation and authorization of a request: the user it acts as, or a thrown 401/403. */
  async admit(req: Request, info: RequestInfo, query: URLSearchParams, trace?: AdmitTrace): Promise<UserInfo> {
    let user = await this.authenticator.authenticate(req as Parameters<RequestAuthenticator['authenticate']>[0]);
    if (trace) trace.user = user;
    if (wantsImpersonation(req.headers)) {
      user = await impersonate(user, impersonationHeaders(req), (a) => this.authorize(a));
      if (trace) trace.impersonatedUser = user;
    }
    const attrs = requestAttributes(user, info, query);
    const d = await this.authorize(attrs);
    if (trace) { trace.decision = d.decision === 'allow' ? 'allow' : 'forbid'; trace.reason = d.reason; }
    if (d.decision !== 'allow') throw forbiddenError(attrs, d.reason);
    return user;
  }

  /** Serves the endpoints access control answers itself (reviews, TokenRequest); false for any other. */
  async serve(req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: UserInfo): Promise<boolean> {
    if (!info.isResourceRequest) return false;
    if (info.apiGroup === '' && info.resource === 'serviceaccounts' && info.subresource === 'token' && info.name && info.parts.length === 0) {
      if (!this.registry?.surface.lookup('', info.apiVersion, 'serviceaccounts')) return false;
      await serveTokenRequest({
        issuer: this.issuer, apiAudiences: this.apiAudiences, maxExpirationSeconds: this.deps.options.serviceAccountMaxTokenExpirationSeconds,
        lookup: this.lookup, freshness: this.freshness,
      }, req, res, info, query);
      return true;
    }
    // A review addressed by Kubernetes' group name arrives here as the renamed group (RequestInfo.apiGroup).
    if (!REVIEW_KINDS.has(`${info.apiGroup}/${info.resource}`)) return false;
    const served = this.registry?.surface.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!served) return false;
    await serveReview({
      authorize: (a) => this.authorize(a),
      rulesFor: (u, ns) => this.rulesFor(u, ns),
      authenticateToken: (t, auds) => this.authenticateToken(t, auds),
    }, served, req, res, info, query, user, info.clientGroup);
    return true;
  }

  authenticateToken(token: string, audiences: readonly string[] | undefined): Promise<TokenReviewResult> {
    return this.authenticator.authenticateToken(token, audiences);
  }

  /** RBAC escalation prevention and the node restriction, for the server's admission chain. */
  admissionPlugins(): AdmissionPlugin[] {
    return [
      nodeRestrictionAdmission(),
      rbacEscalationAdmission({
        resolver: this.resolver,
        authorize: (a) => this.authorizer.authorize(a),
        catchUp: () => this.freshness.catchUp(rbacStores(this.lookup)),
      }),
    ];
  }

  stop(): void {
    this.authorizer.stop();
    this.pods.stop();
  }
}

/** Secrets and service accounts for secret-based tokens; the last-used label is written as the API server. */
function legacyLookup(lookup: StoreLookup, freshness: CacheFreshness, log: (line: string) => void): LegacyLookup {
  const secrets = () => lookup('', 'secrets');
  const accounts = () => lookup('', 'serviceaccounts');
  const ctx = apiServerContext();
  return {
    prepare: () => freshness.catchUp([secrets(), accounts()]),
    secret: (ns, name) => secrets()?.current(ns, name)?.object as LegacySecret | undefined,
    serviceAccount: (ns, name) => accounts()?.current(ns, name)?.object as LegacyServiceAccount | undefined,
    async markUsed(secret, today) {
      const store = secrets();
      if (!store) return;
      try {
        await updateObject(store, ctx, secret.metadata.namespace ?? '', secret.metadata.name, (obj) => {
          obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LAST_USED_LABEL]: today };
        }, { uid: secret.metadata.uid });
      } catch (err) {
        log(`Failed to label legacy service account token ${secret.metadata.name}/${secret.metadata.namespace} with last-used date, err: ${(err as Error).message}`);
      }
    },
  };
}

/** The path as Go's URL.Path holds it (percent-escapes decoded), which authorizers and messages see. */

/** The authorization attributes of a request. */
export function requestAttributes(user: UserInfo, info: RequestInfo, query: URLSearchParams): Attributes {
  const attrs: Attributes = {
    user, verb: info.verb, isResourceRequest: info.isResourceRequest, path: unescaped(info.path),
    namespace: info.namespace, apiGroup: info.apiGroup, apiVersion: info.apiVersion,
    resource: info.resource, subresource: info.subresource, name: info.name,
  };
  if (info.isResourceRequest && (info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection')) {
    const fs = query.get('fieldSelector');
    if (fs) attrs.fieldSelector = fs;
    // A list or watch of one name (fieldSelector=metadata.name=x) is authorized as a request for that name.
    if (fs && !attrs.name && info.verb !== 'deletecollection') {
      let name: string | undefined;
      try { name = fieldSelectorRequiresExactMatch(parseFieldSelector(fs), 'metadata.name'); } catch { name = undefined; }
      if (name && !isValidPathSegmentName(name).length) attrs.name = name;
    }
  }
  return attrs;
}
