// Turns the audit options into the server's audit stage: the policy is read (a wrong one stops the start,
// even without a log), and with both a policy and a log the auditor writes events there.
import type { AuditOptions } from './options.ts';
import { validateAuditOptions } from './options.ts';
import { loadAuditPolicy, AUDIT_API_VERSION } from './policy.ts';
import { openAuditLog, type AuditLogFormat } from './log-backend.ts';
import { Auditor } from './auditor.ts';

export async function startAudit(o: AuditOptions, log: (line: string) => void): Promise<Auditor | undefined> {
  const errs = validateAuditOptions(o);
  if (errs.length) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  const policy = o.policyFile ? await loadAuditPolicy(o.policyFile) : undefined;
  if (!o.logPath) return undefined;
  if (!policy) {
    log('No audit policy file provided, no events will be recorded for log backend');
    return undefined;
  }
  const sink = openAuditLog({
    path: o.logPath, format: (o.logFormat ?? 'json') as AuditLogFormat,
    maxAgeDays: o.logMaxAge, maxBackups: o.logMaxBackup, maxSizeMB: o.logMaxSize, compress: o.logCompress,
  });
  return new Auditor({ policy, sink, apiVersion: o.logVersion ?? AUDIT_API_VERSION, log });
}
