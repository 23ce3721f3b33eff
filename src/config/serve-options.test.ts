import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServeFlags } from './flags.ts';
import { serverOptionsFromFlags } from './serve-options.ts';

const optionsOf = (argv: string[]) => {
  const parsed = parseServeFlags(argv);
  return serverOptionsFromFlags(parsed.options, parsed.changed);
};

test('audit and metrics flags become server options', async () => {
  const o = await optionsOf(['--audit-policy-file=/p.yaml', '--audit-log-path=/var/log/audit.log', '--audit-log-maxbackup=2', '--show-hidden-metrics-for-version=1.31']);
  assert.equal(o.showHiddenMetricsForVersion, '1.31');
  assert.deepEqual(o.audit, {
    policyFile: '/p.yaml', logPath: '/var/log/audit.log', logFormat: 'json', logMaxAge: 0, logMaxBackup: 2, logMaxSize: 0,
    logCompress: false, logMode: 'blocking', logVersion: 'audit.svc.io/v1',
  });
});

test('a wrong metrics version or audit log setting stops the start with Kubernetes messages', async () => {
  await assert.rejects(optionsOf(['--show-hidden-metrics-for-version=1.30']), { message: "--show-hidden-metrics-for-version must be omitted or have the value '1.31'. Only the previous minor version is allowed" });
  await assert.rejects(optionsOf(['--audit-log-path=/a.log', '--audit-log-format=yaml']), { message: 'invalid audit log format yaml, allowed formats are "legacy,json"' });
  await assert.rejects(optionsOf(['--audit-log-path=/a.log', '--audit-log-maxage=-1', '--audit-log-mode=eventually']), {
    message: `[invalid audit log mode eventually, allowed modes are "batch,blocking,blocking-strict", --audit-log-maxage -1 can't be a negative number]`,
  });
  await assert.rejects(optionsOf(['--audit-log-path=/a.log', '--audit-log-version=audit.svc.io/v1beta1']), { message: 'invalid group version, allowed versions are ["audit.svc.io/v1"]' });
  // Without a log path the log settings are not looked at, as in Kubernetes.
  assert.equal((await optionsOf(['--audit-log-format=yaml'])).audit?.logFormat, 'yaml');
});
