// Audit events (`audit.svc.io/v1` Event) as Kubernetes writes them: the JSON object with its fields in
// Kubernetes' order, and the one-line `legacy` text (apiserver audit EventString).
import type { Level, Stage } from './policy.ts';
import { goQuote } from '../../machinery/go-format.ts';
import type { UserInfo } from '../../apis/kind.ts';
import { userInfoJson, type UserInfoJson } from '../../auth/user.ts';

export type AuditUser = UserInfoJson;

export interface ObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectRef;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** The fields of an event in the order Kubernetes' JSON has them, empty ones left out. */
export function eventJson(e: AuditEvent): string {
  const out: Record<string, unknown> = {};
  for (const key of ORDER) {
    const v = e[key];
    if (v === undefined) continue;
    if (key === 'annotations' && Object.keys(v as object).length === 0) continue;
    out[key] = v;
  }
  return JSON.stringify(out);
}

const ORDER: (keyof AuditEvent)[] = [
  'kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'impersonatedUser', 'sourceIPs', 'userAgent',
  'objectRef', 'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations',
];

/** A user as the event records it: username, uid, groups, extra, empty ones left out. */
export function auditUser(u: UserInfo | undefined): AuditUser {
  return u ? userInfoJson(u) : {};
}

/** A metav1.MicroTime: RFC 3339 in UTC with six fraction digits. `ms` may carry fractions of a millisecond. */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - whole) * 1000);
  const iso = new Date(whole).toISOString(); // 2024-05-01T10:00:00.123Z
  return `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z`;
}

/** Go's time.RFC3339Nano of a MicroTime text: trailing zeros of the fraction (and a bare dot) dropped. */
function rfc3339Nano(micro: string): string {
  return micro.replace(/\.?0+Z$/, 'Z');
}

const quotedList = (list: readonly string[]) => list.map(goQuote).join(',');

/** The `legacy` format: one line of the event's main facts, as Kubernetes' EventString writes it. */
export function eventLegacy(e: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (e.user.username) {
    username = e.user.username;
    if (e.user.groups?.length) groups = quotedList(e.user.groups);
  }
  let as = '<self>';
  let asGroups = '<lookup>';
  if (e.impersonatedUser) {
    as = e.impersonatedUser.username ?? '';
    if (e.impersonatedUser.groups) asGroups = quotedList(e.impersonatedUser.groups);
  }
  const namespace = e.objectRef?.namespace || '<none>';
  const response = e.responseStatus ? String(e.responseStatus.code) : '<deferred>';
  const ip = e.sourceIPs?.[0] ?? '<unknown>';
  return `${rfc3339Nano(e.requestReceivedTimestamp)} AUDIT: id=${goQuote(e.auditID)} stage=${goQuote(e.stage)} ip=${goQuote(ip)} method=${goQuote(e.verb)} user=${goQuote(username)} groups=${goQuote(groups)} as=${goQuote(as)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(e.userAgent ?? '')} namespace=${goQuote(namespace)} uri=${goQuote(e.requestURI)} response="${response}"`;
}
