import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  flag,
  formatFlagUsages,
  parseFlags,
  parseServeFlags,
  serveHelp,
  FlagError,
  SERVE_FLAGS,
  type ServeOptions,
} from './flags.ts';

const TABLE = [
  flag({ name: 'name', type: 'string', default: 'x', help: 'A name.' }),
  flag({ name: 'path', type: 'string', help: 'A path.' }),
  flag({ name: 'count', type: 'int', default: 3, help: 'A count.' }),
  flag({ name: 'verbose', type: 'bool', help: 'Talk more.' }),
  flag({ name: 'color', type: 'bool', default: true, help: 'Use colours.' }),
  flag({ name: 'wait', type: 'duration', default: 30_000, help: 'How long.' }),
  flag({ name: 'servers', type: 'stringList', default: ['a'], help: 'Servers.' }),
  flag({ name: 'labels', type: 'mapStringString', help: 'Labels.' }),
  flag({ name: 'apis', type: 'mapStringString', missingValue: 'true', help: 'APIs.' }),
  flag({ name: 'gates', type: 'mapStringBool', help: 'Gates.' }),
] as const;

function errorOf(argv: string[]): string {
  try {
    parseFlags(TABLE, argv);
  } catch (error) {
    assert.ok(error instanceof FlagError);
    return error.message;
  }
  assert.fail(`no error for ${argv.join(' ')}`);
}

test('defaults apply when nothing is given; unset optional scalars are undefined', () => {
  const parsed = parseFlags(TABLE, []);
  assert.deepEqual(parsed.values, {
    name: 'x', path: undefined, count: 3, verbose: false, color: true, wait: 30_000,
    servers: ['a'], labels: {}, apis: {}, gates: {},
  });
  assert.deepEqual(parsed.args, []);
  assert.equal(parsed.help, false);
  assert.deepEqual([...parsed.changed], []);
});

test('--name=value and --name value forms', () => {
  const { values, changed } = parseFlags(TABLE, ['--name=alpha', '--path', '/tmp/p', '--count', '7', '--wait=1m30s']);
  assert.equal(values.name, 'alpha');
  assert.equal(values.path, '/tmp/p');
  assert.equal(values.count, 7);
  assert.equal(values.wait, 90_000);
  assert.deepEqual([...changed].sort(), ['count', 'name', 'path', 'wait']);
  // Empty values, values with "=" and values that look like flags are taken as they are, as pflag does.
  assert.equal(parseFlags(TABLE, ['--name=']).values.name, '');
  assert.equal(parseFlags(TABLE, ['--name=a=b']).values.name, 'a=b');
  assert.equal(parseFlags(TABLE, ['--name', '--count']).values.name, '--count');
});

test('boolean flags: bare, =true/=false and the strconv spellings; a bare bool never takes the next argument', () => {
  assert.equal(parseFlags(TABLE, ['--verbose']).values.verbose, true);
  assert.equal(parseFlags(TABLE, ['--color=false']).values.color, false);
  assert.equal(parseFlags(TABLE, ['--color=0']).values.color, false);
  assert.equal(parseFlags(TABLE, ['--verbose=T']).values.verbose, true);
  assert.equal(parseFlags(TABLE, ['--verbose=TRUE']).values.verbose, true);
  const parsed = parseFlags(TABLE, ['--color', 'false']);
  assert.equal(parsed.values.color, true);
  assert.deepEqual(parsed.args, ['false']);
});

test('ints take Go integer syntax', () => {
  assert.equal(parseFlags(TABLE, ['--count=-4']).values.count, -4);
  assert.equal(parseFlags(TABLE, ['--count=0x10']).values.count, 16);
  assert.equal(parseFlags(TABLE, ['--count=010']).values.count, 8);
  assert.equal(parseFlags(TABLE, ['--count=0b11']).values.count, 3);
  assert.equal(parseFlags(TABLE, ['--count=0']).values.count, 0);
});

test('repeated flags: scalars keep the last, lists append after replacing the default, maps merge', () => {
  const { values } = parseFlags(TABLE, [
    '--name=a', '--name=b',
    '--servers=s1,s2', '--servers', 's3',
    '--labels', 'k1=v1, k2 = v2', '--labels=k1=v3',
    '--gates=A=true', '--gates', 'B=false,A=false',
  ]);
  assert.equal(values.name, 'b');
  assert.deepEqual(values.servers, ['s1', 's2', 's3']);
  assert.deepEqual(values.labels, { k1: 'v3', k2: 'v2' });
  assert.deepEqual(values.gates, { A: false, B: false });
  assert.deepEqual(parseFlags(TABLE, ['--servers=']).values.servers, []);
});

test('a map flag with missingValue takes bare keys; values may contain "="', () => {
  const { values } = parseFlags(TABLE, ['--apis=api/all=false,apps/v1,batch/v1/jobs=true,,', '--labels=a=b=c']);
  assert.deepEqual(values.apis, { 'api/all': 'false', 'apps/v1': 'true', 'batch/v1/jobs': 'true' });
  assert.deepEqual(values.labels, { a: 'b=c' });
});

test('defaults are copied, so parsing twice never shares lists or maps', () => {
  const first = parseFlags(TABLE, ['--servers=x', '--servers=y']);
  const second = parseFlags(TABLE, []);
  assert.deepEqual(first.values.servers, ['x', 'y']);
  assert.deepEqual(second.values.servers, ['a']);
  assert.deepEqual(TABLE[6].default, ['a']);
});

test('positional arguments, "-", and everything after "--" are returned as args', () => {
  const parsed = parseFlags(TABLE, ['one', '--verbose', '-', 'two', '--', '--name=z', 'three']);
  assert.deepEqual(parsed.args, ['one', '-', 'two', '--name=z', 'three']);
  assert.equal(parsed.values.name, 'x');
  assert.equal(parsed.values.verbose, true);
});

test('underscores in flag names are read as dashes, as Kubernetes does', () => {
  const parsed = parseFlags(SERVE_FLAGS, ['--secure_port=1234', '--data_dir', '/d']);
  assert.equal(parsed.values.securePort, 1234);
  assert.equal(parsed.values.dataDir, '/d');
  assert.ok(parsed.changed.has('secure-port'));
});

test('--help and -h stop parsing and report help', () => {
  assert.equal(parseFlags(TABLE, ['--help']).help, true);
  assert.equal(parseFlags(TABLE, ['--count=4', '-h', '--unknown']).help, true);
  assert.equal(parseFlags(TABLE, ['--count=4', '-h']).values.count, 4);
});

test('errors use the pflag texts', () => {
  assert.equal(errorOf(['--x']), 'unknown flag: --x');
  assert.equal(errorOf(['--x=1']), 'unknown flag: --x');
  assert.equal(errorOf(['-x']), "unknown shorthand flag: 'x' in -x");
  assert.equal(errorOf(['-name=a']), "unknown shorthand flag: 'n' in -name=a");
  assert.equal(errorOf(['---name']), 'bad flag syntax: ---name');
  assert.equal(errorOf(['--=a']), 'bad flag syntax: --=a');
  assert.equal(errorOf(['--count']), 'flag needs an argument: --count');
  assert.equal(errorOf(['--path']), 'flag needs an argument: --path');
  assert.equal(errorOf(['--count=abc']), 'invalid argument "abc" for "--count" flag: strconv.ParseInt: parsing "abc": invalid syntax');
  assert.equal(errorOf(['--count', '1.5']), 'invalid argument "1.5" for "--count" flag: strconv.ParseInt: parsing "1.5": invalid syntax');
  assert.equal(errorOf(['--count=']), 'invalid argument "" for "--count" flag: strconv.ParseInt: parsing "": invalid syntax');
  assert.equal(errorOf(['--count=09']), 'invalid argument "09" for "--count" flag: strconv.ParseInt: parsing "09": invalid syntax');
  assert.equal(
    errorOf(['--count=99999999999999999999']),
    'invalid argument "99999999999999999999" for "--count" flag: strconv.ParseInt: parsing "99999999999999999999": value out of range',
  );
  assert.equal(errorOf(['--verbose=yes']), 'invalid argument "yes" for "--verbose" flag: strconv.ParseBool: parsing "yes": invalid syntax');
  assert.equal(errorOf(['--wait=5']), 'invalid argument "5" for "--wait" flag: time: missing unit in duration "5"');
  assert.equal(errorOf(['--wait', '5x']), 'invalid argument "5x" for "--wait" flag: time: unknown unit "x" in duration "5x"');
  assert.equal(errorOf(['--labels=novalue']), 'invalid argument "novalue" for "--labels" flag: malformed pair, expect string=string');
  assert.equal(errorOf(['--gates=A']), 'invalid argument "A" for "--gates" flag: malformed pair, expect string=bool');
  assert.equal(
    errorOf(['--gates=A=maybe']),
    'invalid argument "A=maybe" for "--gates" flag: invalid value of A: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
  );
});

test('serve: defaults', () => {
  const { options, help, changed } = parseServeFlags([]);
  assert.equal(help, false);
  assert.equal(changed.size, 0);
  assert.deepEqual(options, {
    dataDir: './.capstan',
    bindAddress: '127.0.0.1',
    securePort: 6443,
    tlsCertFile: undefined,
    tlsPrivateKeyFile: undefined,
    clientCaFile: undefined,
    watchHistoryRetention: 300_000,
    etcdServers: [],
    etcdPrefix: '/registry',
    etcdCafile: undefined,
    etcdCertfile: undefined,
    etcdKeyfile: undefined,
    etcdCompactionInterval: 300_000,
    runtimeConfig: {},
    featureGates: {},
    authorizationMode: ['Node', 'RBAC'],
    anonymousAuth: true,
    tokenAuthFile: undefined,
    authorizationConfig: undefined,
    authorizationPolicyFile: undefined,
    authorizationWebhookConfigFile: undefined,
    authorizationWebhookVersion: 'v1beta1',
    authorizationWebhookCacheAuthorizedTtl: 300_000,
    authorizationWebhookCacheUnauthorizedTtl: 30_000,
    serviceAccountIssuer: [],
    serviceAccountKeyFile: [],
    serviceAccountSigningKeyFile: undefined,
    serviceAccountMaxTokenExpiration: undefined,
    apiAudiences: [],
    enableBootstrapTokenAuth: false,
    controllers: ['*'],
    clusterSigningDuration: 365 * 24 * 60 * 60 * 1000,
    showHiddenMetricsForVersion: undefined,
    auditPolicyFile: undefined,
    auditLogPath: undefined,
    auditLogFormat: 'json',
    auditLogMaxage: 0,
    auditLogMaxbackup: 0,
    auditLogMaxsize: 0,
    auditLogCompress: false,
    auditLogMode: 'blocking',
    auditLogVersion: 'audit.svc.io/v1',
    serviceClusterIpRange: '10.0.0.0/24',
    serviceNodePortRange: '30000-32767',
    logLevel: 'info',
    shutdownTimeout: 60_000,
  } satisfies ServeOptions);
});

test('serve: every flag is read into its typed option', () => {
  const { options } = parseServeFlags([
    '--data-dir=/var/lib/capstan', '--bind-address', '0.0.0.0', '--secure-port=0',
    '--tls-cert-file=/c.crt', '--tls-private-key-file=/c.key', '--client-ca-file=/ca.crt',
    '--watch-history-retention=10m', '--etcd-servers=https://e1:2379,https://e2:2379', '--etcd-prefix=/capstan',
    '--etcd-cafile=/e/ca', '--etcd-certfile=/e/crt', '--etcd-keyfile=/e/key', '--etcd-compaction-interval=0',
    '--runtime-config=api/alpha=true,batch/v2alpha1', '--feature-gates', 'WatchList=true,InPlacePodVerticalScaling=false',
    '--authorization-mode=AlwaysAllow', '--anonymous-auth=false', '--token-auth-file=/tokens.csv',
    '--authorization-config=/authz.yaml', '--authorization-policy-file=/abac.jsonl', '--authorization-webhook-config-file=/wh.kubeconfig',
    '--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl=1m', '--authorization-webhook-cache-unauthorized-ttl=5s',
    '--service-account-issuer=https://a', '--service-account-issuer=https://b', '--service-account-key-file=/sa.pub',
    '--service-account-signing-key-file=/sa.key', '--service-account-max-token-expiration=2h', '--api-audiences=x,y',
    '--enable-bootstrap-token-auth', '--controllers=*,tokencleaner,-bootstrapsigner', '--cluster-signing-duration=720h',
    '--show-hidden-metrics-for-version=1.31', '--audit-policy-file=/audit.yaml', '--audit-log-path=-', '--audit-log-format=legacy',
    '--audit-log-maxage=7', '--audit-log-maxbackup=3', '--audit-log-maxsize=50', '--audit-log-compress', '--audit-log-mode=batch',
    '--audit-log-version=audit.k8s.io/v1', '--service-cluster-ip-range=10.96.0.0/12', '--service-node-port-range=20000+99',
    '--log-level=debug', '--shutdown-timeout=5s',
  ]);
  assert.deepEqual(options, {
    dataDir: '/var/lib/capstan',
    bindAddress: '0.0.0.0',
    securePort: 0,
    tlsCertFile: '/c.crt',
    tlsPrivateKeyFile: '/c.key',
    clientCaFile: '/ca.crt',
    watchHistoryRetention: 600_000,
    etcdServers: ['https://e1:2379', 'https://e2:2379'],
    etcdPrefix: '/capstan',
    etcdCafile: '/e/ca',
    etcdCertfile: '/e/crt',
    etcdKeyfile: '/e/key',
    etcdCompactionInterval: 0,
    runtimeConfig: { 'api/alpha': 'true', 'batch/v2alpha1': 'true' },
    featureGates: { WatchList: true, InPlacePodVerticalScaling: false },
    authorizationMode: ['AlwaysAllow'],
    anonymousAuth: false,
    tokenAuthFile: '/tokens.csv',
    authorizationConfig: '/authz.yaml',
    authorizationPolicyFile: '/abac.jsonl',
    authorizationWebhookConfigFile: '/wh.kubeconfig',
    authorizationWebhookVersion: 'v1',
    authorizationWebhookCacheAuthorizedTtl: 60_000,
    authorizationWebhookCacheUnauthorizedTtl: 5_000,
    serviceAccountIssuer: ['https://a', 'https://b'],
    serviceAccountKeyFile: ['/sa.pub'],
    serviceAccountSigningKeyFile: '/sa.key',
    serviceAccountMaxTokenExpiration: 7_200_000,
    apiAudiences: ['x', 'y'],
    enableBootstrapTokenAuth: true,
    controllers: ['*', 'tokencleaner', '-bootstrapsigner'],
    clusterSigningDuration: 720 * 60 * 60 * 1000,
    showHiddenMetricsForVersion: '1.31',
    auditPolicyFile: '/audit.yaml',
    auditLogPath: '-',
    auditLogFormat: 'legacy',
    auditLogMaxage: 7,
    auditLogMaxbackup: 3,
    auditLogMaxsize: 50,
    auditLogCompress: true,
    auditLogMode: 'batch',
    auditLogVersion: 'audit.k8s.io/v1',
    serviceClusterIpRange: '10.96.0.0/12',
    serviceNodePortRange: '20000+99',
    logLevel: 'debug',
    shutdownTimeout: 5_000,
  });
});

test('serve: value checks and stray arguments', () => {
  const message = (argv: string[]) => {
    try {
      parseServeFlags(argv);
    } catch (error) {
      assert.ok(error instanceof FlagError);
      return error.message;
    }
    assert.fail(`no error for ${argv.join(' ')}`);
  };
  assert.equal(message(['--secure-port=70000']), 'invalid argument "70000" for "--secure-port" flag: must be between 0 and 65535, inclusive');
  assert.equal(message(['--secure-port=-1']), 'invalid argument "-1" for "--secure-port" flag: must be between 0 and 65535, inclusive');
  assert.equal(message(['--bind-address=localhost']), 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"');
  assert.equal(message(['--log-level=loud']), 'invalid argument "loud" for "--log-level" flag: must be one of trace, debug, info, warn, error, fatal, silent');
  assert.equal(message(['--shutdown-timeout=-5s']), 'invalid argument "-5s" for "--shutdown-timeout" flag: must not be negative');
  assert.equal(message(['--service-cluster-ip-range=10.0.0.0']), 'invalid argument "10.0.0.0" for "--service-cluster-ip-range" flag: service-cluster-ip-range[0] is not a valid cidr');
  assert.equal(message(['--service-cluster-ip-range=10.0.0.0/8']), 'invalid argument "10.0.0.0/8" for "--service-cluster-ip-range" flag: specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
  assert.equal(message(['--service-node-port-range=32767-30000']), 'invalid argument "32767-30000" for "--service-node-port-range" flag: end port cannot be less than start port: 32767-30000');
  assert.equal(message(['--anonymous-auth', 'false']), '"capstan serve" does not take any arguments, got ["false"]');
  assert.equal(message(['extra', 'args']), '"capstan serve" does not take any arguments, got ["extra" "args"]');
  assert.equal(message(['--nope']), 'unknown flag: --nope');
  assert.equal(parseServeFlags(['--bind-address=::1']).options.bindAddress, '::1');
  assert.equal(parseServeFlags(['--help']).help, true);
});

test('help text lists flags sorted, with types and non-zero defaults, aligned like pflag', () => {
  const usage = formatFlagUsages(TABLE, 'tool');
  assert.equal(
    usage,
    [
      '      --apis mapStringString     APIs.',
      '      --color                    Use colours. (default true)',
      '      --count int                A count. (default 3)',
      '      --gates mapStringBool      Gates.',
      '      --labels mapStringString   Labels.',
      '      --name string              A name. (default "x")',
      '      --path string              A path.',
      '      --servers strings          Servers. (default [a])',
      '      --verbose                  Talk more.',
      '      --wait duration            How long. (default 30s)',
      '  -h, --help                     help for tool',
      '',
    ].join('\n'),
  );
  const help = serveHelp();
  assert.match(help, /^Run the API server\.\n\nUsage:\n  capstan serve \[flags\]\n\nFlags:\n/);
  assert.match(help, /\n {6}--secure-port int {41}The port on which to serve HTTPS .* \(default 6443\)\n/);
  assert.match(help, /--watch-history-retention duration {24}.*\(default 5m0s\)\n/);
  assert.match(help, /--authorization-mode strings .*\(default \[Node,RBAC\]\)\n/);
  assert.match(help, /--anonymous-auth .*\(default true\)\n/);
  assert.match(help, /--shutdown-timeout duration .*\(default 1m0s\)\n/);
  assert.match(help, /--audit-log-path string {2,}If set, all requests coming to the apiserver will be logged to this file\. {2}'-' means standard out\.\n/);
  assert.match(help, /--audit-log-format string .*Known formats are legacy,json\. \(default "json"\)\n/);
  assert.match(help, /--show-hidden-metrics-for-version string {2,}The previous version for which you want to show hidden metrics\./);
  // Every flag of the table appears once.
  const lines = help.split('\n');
  for (const spec of SERVE_FLAGS) assert.equal(lines.filter((line) => line.startsWith(`      --${spec.name} `)).length, 1, spec.name);
});

test('option types follow the table', () => {
  const { options } = parseServeFlags([]);
  // @ts-expect-error a string option is not a number
  const port: string = options.securePort;
  // @ts-expect-error optional file flags may be undefined
  const file: string = options.tlsCertFile;
  const gates: Record<string, boolean> = options.featureGates;
  void [port, file, gates];
});
