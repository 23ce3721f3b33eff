// The audit flags of `capstan serve` (Kubernetes' --audit-policy-file and --audit-log-*), and their checks
// with Kubernetes' messages. Kept free of the audit machinery, which loads only when auditing is on.

export interface AuditOptions {
  /** --audit-policy-file: the Policy that says what is recorded. */
  policyFile?: string;
  /** --audit-log-path: the file events go to, `-` for standard output. Nothing is written without both. */
  logPath?: string;
  /** --audit-log-format: `json` (default) or `legacy`. */
  logFormat?: string;
  logMaxAge?: number;
  logMaxBackup?: number;
  logMaxSize?: number;
  logCompress?: boolean;
  /** --audit-log-version: the apiVersion events are written in. */
  logVersion?: string;
  /** --audit-log-mode: accepted; every event is written before the request goes on. */
  logMode?: string;
}

export const AUDIT_LOG_FORMATS = ['legacy', 'json'] as const;
export const AUDIT_LOG_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
/** The versions events can be written in: ours, and the same under Kubernetes' name. */
export const AUDIT_LOG_VERSIONS = ['audit.svc.io/v1', 'audit.k8s.io/v1'] as const;

/** Kubernetes' AuditLogOptions.Validate: checked only when a log path is given. */
export function validateAuditOptions(o: AuditOptions): string[] {
  if (!o.logPath) return [];
  const errs: string[] = [];
  const mode = o.logMode ?? 'blocking';
  if (!(AUDIT_LOG_MODES as readonly string[]).includes(mode)) errs.push(`invalid audit log mode ${mode}, allowed modes are ${JSON.stringify(AUDIT_LOG_MODES.join(','))}`);
  const version = o.logVersion ?? AUDIT_LOG_VERSIONS[0];
  if (!(AUDIT_LOG_VERSIONS as readonly string[]).includes(version)) errs.push(`invalid group version, allowed versions are ["${AUDIT_LOG_VERSIONS[0]}"]`);
  const format = o.logFormat ?? 'json';
  if (!(AUDIT_LOG_FORMATS as readonly string[]).includes(format)) errs.push(`invalid audit log format ${format}, allowed formats are ${JSON.stringify(AUDIT_LOG_FORMATS.join(','))}`);
  for (const [flag, value] of [['maxage', o.logMaxAge], ['maxbackup', o.logMaxBackup], ['maxsize', o.logMaxSize]] as const) {
    if (value !== undefined && value < 0) errs.push(`--audit-log-${flag} ${value} can't be a negative number`);
  }
  return errs;
}
