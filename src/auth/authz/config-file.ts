// The authorization configuration file (--authorization-config): AuthorizationConfiguration in
// apiserver.config.svc.io/v1, an ordered list of authorizers. Every field is checked, and every problem is
// reported at once in Kubernetes' field-error form (`authorizers[0].webhook.timeout: Invalid value: ...`).
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import YAML from '../../machinery/yaml.ts';
import { type FieldError, fieldErrorText, duplicate, invalid, notSupported, required, tooMany } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/strings.ts';
import { parseDuration, formatDuration } from '../../config/duration.ts';
import { CelCompileError, type CelProgram } from '../../machinery/cel.ts';
import { compileMatchCondition } from './webhook.ts';

export const AUTHORIZATION_CONFIG_API_VERSION = 'apiserver.config.svc.io/v1';
export const AUTHORIZATION_CONFIG_KIND = 'AuthorizationConfiguration';
export const CONFIG_AUTHORIZER_TYPES = ['Node', 'RBAC', 'Webhook'] as const;
export const MAX_MATCH_CONDITIONS = 64;
export const MAX_WEBHOOK_TIMEOUT_MS = 30_000;
export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;

export interface WebhookSettings {
  authorizedTTLMs: number;
  unauthorizedTTLMs: number;
  timeoutMs: number;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  matchConditionSubjectAccessReviewVersion: 'v1';
  failurePolicy: 'NoOpinion' | 'Deny';
  connectionInfo: { type: 'KubeConfigFile'; kubeConfigFile: string } | { type: 'InClusterConfig' };
  matchConditions: CelProgram[];
}

export interface AuthorizerEntry {
  type: 'Node' | 'RBAC' | 'Webhook';
  name: string;
  webhook?: WebhookSettings;
}

export interface AuthorizationConfiguration {
  authorizers: AuthorizerEntry[];
}

export class AuthorizationConfigError extends Error {
  readonly errors: string[];
  constructor(errors: string[]) {
    super(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    this.errors = errors;
  }
}

const TOP_FIELDS = ['apiVersion', 'kind', 'authorizers'];
const AUTHORIZER_FIELDS = ['type', 'name', 'webhook'];
const WEBHOOK_FIELDS = ['authorizedTTL', 'unauthorizedTTL', 'timeout', 'subjectAccessReviewVersion', 'matchConditionSubjectAccessReviewVersion', 'failurePolicy', 'connectionInfo', 'matchConditions'];
const CONNECTION_FIELDS = ['type', 'kubeConfigFile'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Parses (YAML or JSON) and validates; throws AuthorizationConfigError listing every problem. */
export function parseAuthorizationConfiguration(text: string): AuthorizationConfiguration {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    throw new AuthorizationConfigError([`error parsing the file: ${(err as Error).message}`]);
  }
  if (!isObj(doc)) throw new AuthorizationConfigError(['the file must hold one AuthorizationConfiguration object']);
  if (doc.apiVersion !== AUTHORIZATION_CONFIG_API_VERSION || doc.kind !== AUTHORIZATION_CONFIG_KIND) {
    throw new AuthorizationConfigError([`apiVersion and kind must be ${JSON.stringify(AUTHORIZATION_CONFIG_API_VERSION)} and ${JSON.stringify(AUTHORIZATION_CONFIG_KIND)}, got ${JSON.stringify(doc.apiVersion ?? '')} and ${JSON.stringify(doc.kind ?? '')}`]);
  }
  const unknown: string[] = [];
  const errs: FieldError[] = [];
  checkUnknown(doc, TOP_FIELDS, '', unknown);
  const list = doc.authorizers;
  if (list !== undefined && list !== null && !Array.isArray(list)) errs.push(invalid('authorizers', typeof list, 'must be a list'));
  const items = Array.isArray(list) ? list : [];
  if (!items.length) errs.push(required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const authorizers: AuthorizerEntry[] = [];
  items.forEach((raw, i) => {
    const path = `authorizers[${i}]`;
    if (!isObj(raw)) { errs.push(invalid(path, raw, 'must be an object')); return; }
    checkUnknown(raw, AUTHORIZER_FIELDS, path, unknown);
    const type = typeof raw.type === 'string' ? raw.type : '';
    if (!type) { errs.push(required(`${path}.type`)); return; }
    if (!(CONFIG_AUTHORIZER_TYPES as readonly string[]).includes(type)) { errs.push(notSupported(`${path}.type`, type, CONFIG_AUTHORIZER_TYPES)); return; }
    if (seenTypes.has(type) && type !== 'Webhook') { errs.push(duplicate(`${path}.type`, type)); return; }
    seenTypes.add(type);
    const name = typeof raw.name === 'string' ? raw.name : '';
    if (!name) errs.push(required(`${path}.name`));
    else if (seenNames.has(name)) errs.push(duplicate(`${path}.name`, name));
    else {
      const problems = isDNS1123Subdomain(name);
      if (problems.length) errs.push(invalid(`${path}.name`, name, `authorizer name is invalid: ${problems.join(', ')}`));
    }
    seenNames.add(name);
    const entry: AuthorizerEntry = { type: type as AuthorizerEntry['type'], name };
    if (type === 'Webhook') {
      if (!isObj(raw.webhook)) { errs.push(required(`${path}.webhook`, 'required when type=Webhook')); return; }
      entry.webhook = validateWebhook(raw.webhook, `${path}.webhook`, errs, unknown);
    } else if (raw.webhook !== undefined && raw.webhook !== null) {
      errs.push(invalid(`${path}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
    }
    authorizers.push(entry);
  });
  const messages = [...unknown.map((f) => `strict decoding error: unknown field ${JSON.stringify(f)}`), ...errs.map(fieldErrorText)];
  if (messages.length) throw new AuthorizationConfigError(messages);
  return { authorizers };
}

function checkUnknown(obj: Obj, known: string[], path: string, out: string[]): void {
  for (const k of Object.keys(obj)) if (!known.includes(k)) out.push(path ? `${path}.${k}` : k);
}

function duration(v: unknown, path: string, errs: FieldError[]): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') { errs.push(invalid(path, v, 'must be a duration such as "30s"')); return NaN; }
  try {
    return parseDuration(v);
  } catch (err) {
    errs.push(invalid(path, v, (err as Error).message));
    return NaN;
  }
}

function validateWebhook(w: Obj, path: string, errs: FieldError[], unknown: string[]): WebhookSettings {
  checkUnknown(w, WEBHOOK_FIELDS, path, unknown);
  const timeout = duration(w.timeout, `${path}.timeout`, errs);
  if (timeout === undefined || timeout === 0) errs.push(required(`${path}.timeout`));
  else if (!Number.isNaN(timeout) && (timeout < 0 || timeout > MAX_WEBHOOK_TIMEOUT_MS)) errs.push(invalid(`${path}.timeout`, formatDuration(timeout), 'must be > 0s and <= 30s'));
  const ttl = (key: 'authorizedTTL' | 'unauthorizedTTL', fallback: number) => {
    const v = duration(w[key], `${path}.${key}`, errs);
    if (v === undefined || v === 0) return fallback;
    if (v < 0) errs.push(invalid(`${path}.${key}`, formatDuration(v), 'must be > 0s'));
    return v;
  };
  const authorizedTTLMs = ttl('authorizedTTL', DEFAULT_AUTHORIZED_TTL_MS);
  const unauthorizedTTLMs = ttl('unauthorizedTTL', DEFAULT_UNAUTHORIZED_TTL_MS);

  const sarVersion = w.subjectAccessReviewVersion;
  if (sarVersion === undefined || sarVersion === '') errs.push(required(`${path}.subjectAccessReviewVersion`));
  else if (sarVersion !== 'v1' && sarVersion !== 'v1beta1') errs.push(notSupported(`${path}.subjectAccessReviewVersion`, sarVersion, ['v1', 'v1beta1']));
  const mcVersion = w.matchConditionSubjectAccessReviewVersion;
  if (mcVersion === undefined || mcVersion === '') errs.push(required(`${path}.matchConditionSubjectAccessReviewVersion`));
  else if (mcVersion !== 'v1') errs.push(notSupported(`${path}.matchConditionSubjectAccessReviewVersion`, mcVersion, ['v1']));
  const policy = w.failurePolicy;
  if (policy === undefined || policy === '') errs.push(required(`${path}.failurePolicy`));
  else if (policy !== 'NoOpinion' && policy !== 'Deny') errs.push(notSupported(`${path}.failurePolicy`, policy, ['NoOpinion', 'Deny']));

  let connectionInfo: WebhookSettings['connectionInfo'] = { type: 'InClusterConfig' };
  const ci = w.connectionInfo;
  const ciPath = `${path}.connectionInfo`;
  if (!isObj(ci)) errs.push(required(`${ciPath}.type`));
  else {
    checkUnknown(ci, CONNECTION_FIELDS, ciPath, unknown);
    const file = ci.kubeConfigFile;
    if (ci.type === 'InClusterConfig') {
      if (file !== undefined && file !== null) errs.push(invalid(`${ciPath}.kubeConfigFile`, file, 'can only be set when type=KubeConfigFile'));
    } else if (ci.type === 'KubeConfigFile') {
      if (typeof file !== 'string' || !file) errs.push(required(`${ciPath}.kubeConfigFile`));
      else if (!isAbsolute(file)) errs.push(invalid(`${ciPath}.kubeConfigFile`, file, 'must be an absolute path'));
      else {
        try {
          if (!statSync(file).isFile()) errs.push(invalid(`${ciPath}.kubeConfigFile`, file, 'must be a regular file'));
        } catch (err) {
          errs.push(invalid(`${ciPath}.kubeConfigFile`, file, `error loading file: ${(err as Error).message}`));
        }
        connectionInfo = { type: 'KubeConfigFile', kubeConfigFile: file };
      }
    } else if (ci.type === undefined || ci.type === '') {
      errs.push(required(`${ciPath}.type`));
    } else {
      errs.push(notSupported(`${ciPath}.type`, ci.type, ['InClusterConfig', 'KubeConfigFile']));
    }
  }

  const matchConditions: CelProgram[] = [];
  const mc = w.matchConditions;
  if (mc !== undefined && mc !== null && !Array.isArray(mc)) errs.push(invalid(`${path}.matchConditions`, typeof mc, 'must be a list'));
  const conditions = Array.isArray(mc) ? mc : [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(`${path}.matchConditions`, conditions.length, MAX_MATCH_CONDITIONS));
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const cPath = `${path}.matchConditions[${i}]`;
    if (isObj(c)) checkUnknown(c, ['expression'], cPath, unknown);
    const expression = isObj(c) && typeof c.expression === 'string' ? c.expression : '';
    if (!expression.trim()) { errs.push(required(`${cPath}.expression`)); return; }
    if (seen.has(expression)) { errs.push(duplicate(`${cPath}.expression`, expression)); return; }
    seen.add(expression);
    try {
      matchConditions.push(compileMatchCondition(expression));
    } catch (err) {
      if (!(err instanceof CelCompileError)) throw err;
      errs.push(invalid(`${cPath}.expression`, expression, `compilation failed: ${err.message}`));
    }
  });

  return {
    authorizedTTLMs, unauthorizedTTLMs, timeoutMs: timeout ?? 0,
    subjectAccessReviewVersion: sarVersion === 'v1beta1' ? 'v1beta1' : 'v1',
    matchConditionSubjectAccessReviewVersion: 'v1',
    failurePolicy: policy === 'Deny' ? 'Deny' : 'NoOpinion',
    connectionInfo, matchConditions,
  };
}
