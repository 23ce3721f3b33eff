// ABAC: a policy file of one JSON object per line (Kubernetes' format, group abac.authorization.platform.io).
// A request is allowed when any policy matches its user or group, its verb (read-only policies allow only
// get, list and watch) and its resource or non-resource path.
import type { UserInfo } from '../../apis/kind.ts';
import { allow, noOpinion, isReadOnly, type Attributes, type Authorizer, type RulesResult } from './types.ts';

export const ABAC_API_VERSION = 'abac.authorization.platform.io/v1beta1';
const ALL_AUTHENTICATED = 'system:authenticated';

export interface AbacPolicySpec {
  user: string;
  group: string;
  readonly: boolean;
  apiGroup: string;
  resource: string;
  namespace: string;
  nonResourcePath: string;
}

const SPEC_FIELDS = new Set(['user', 'group', 'readonly', 'apiGroup', 'resource', 'namespace', 'nonResourcePath']);
const V0_FIELDS = new Set(['user', 'group', 'readonly', 'resource', 'namespace']);

/** Parses a policy file's text; throws with the line number on the first bad line. */
export function parseAbacPolicies(text: string, path = 'policy file'): AbacPolicySpec[] {
  const out: AbacPolicySpec[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    try {
      out.push(parseLine(line));
    } catch (err) {
      throw new Error(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(err as Error).message}`);
    }
  }
  return out;
}

function parseLine(line: string): AbacPolicySpec {
  let value: unknown;
  try { value = JSON.parse(line); } catch (err) { throw new Error(`invalid JSON: ${(err as Error).message}`); }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('a policy must be a JSON object');
  const obj = value as Record<string, unknown>;
  if (obj.apiVersion === undefined && obj.kind === undefined) return fromV0(checkFields(obj, V0_FIELDS));
  if (obj.apiVersion !== ABAC_API_VERSION) throw new Error(`unsupported apiVersion ${JSON.stringify(obj.apiVersion)}, expected ${JSON.stringify(ABAC_API_VERSION)}`);
  if (obj.kind !== 'Policy') throw new Error(`unsupported kind ${JSON.stringify(obj.kind)}, expected "Policy"`);
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) throw new Error('spec is required');
  return fromV1beta1(checkFields(spec as Record<string, unknown>, SPEC_FIELDS));
}

function checkFields(obj: Record<string, unknown>, allowed: Set<string>): Record<string, unknown> {
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (!allowed.has(k)) throw new Error(`unknown field ${JSON.stringify(k)}`);
    if (k === 'readonly' ? typeof v !== 'boolean' : typeof v !== 'string') throw new Error(`field ${JSON.stringify(k)} has the wrong type`);
  }
  return obj;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function fromV1beta1(s: Record<string, unknown>): AbacPolicySpec {
  const spec: AbacPolicySpec = {
    user: str(s.user), group: str(s.group), readonly: s.readonly === true, apiGroup: str(s.apiGroup),
    resource: str(s.resource), namespace: str(s.namespace), nonResourcePath: str(s.nonResourcePath),
  };
  // A user or group of * means every authenticated subject.
  if (spec.user === '*' || spec.group === '*') { spec.group = ALL_AUTHENTICATED; spec.user = ''; }
  return spec;
}

/** The unversioned (v0) form: empty fields match everything, as Kubernetes converts them. */
function fromV0(s: Record<string, unknown>): AbacPolicySpec {
  const spec: AbacPolicySpec = { user: str(s.user), group: str(s.group), readonly: s.readonly === true, apiGroup: '*', resource: str(s.resource), namespace: str(s.namespace), nonResourcePath: '' };
  if (!spec.user && !spec.group) spec.group = ALL_AUTHENTICATED;
  if (spec.user === '*' || spec.group === '*') { spec.group = ALL_AUTHENTICATED; spec.user = ''; }
  const noScope = !spec.namespace && !spec.resource;
  if (!spec.namespace) spec.namespace = '*';
  if (!spec.resource) spec.resource = '*';
  if (noScope) spec.nonResourcePath = '*';
  return spec;
}

function subjectMatches(p: AbacPolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user === user.username) matched = true;
    else return false;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function resourceMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (!a.isResourceRequest) return false;
  return (p.namespace === '*' || p.namespace === a.namespace) &&
    (p.resource === '*' || p.resource === a.resource) &&
    (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

function nonResourceMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  if (p.nonResourcePath === '*' || p.nonResourcePath === a.path) return true;
  return p.nonResourcePath.endsWith('*') && a.path.startsWith(p.nonResourcePath.replace(/\*+$/, ''));
}

export function abacMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (p.readonly && !isReadOnly(a.verb)) return false;
  return resourceMatches(p, a) || nonResourceMatches(p, a);
}

export function abacAuthorizer(policies: readonly AbacPolicySpec[]): Authorizer {
  return {
    name: 'ABAC',
    authorize: (attrs) => (policies.some((p) => abacMatches(p, attrs)) ? allow() : noOpinion('No policy matched.')),
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const p of policies) {
        if (!subjectMatches(p, user)) continue;
        const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
        if (p.namespace !== '*' && p.namespace !== namespace) continue;
        if (p.resource) out.resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource] });
        if (p.nonResourcePath) out.nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
      }
      return out;
    },
  };
}
