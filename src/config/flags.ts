// A small command-line flag parser that behaves like the one Kubernetes components use (spf13/pflag
// with Kubernetes' map flag types): `--name=value`, `--name value`, bare boolean flags, repeated
// flags, `--` to end flags, `_` accepted for `-` in names, and pflag's error texts.
import { isIP } from 'node:net';
import { formatDuration, parseDuration } from './duration.ts';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseServiceIPRange } from '../registry/service-allocation/ip-range.ts';
import { DEFAULT_SERVICE_NODE_PORT_RANGE, parsePortRange } from '../registry/service-allocation/port-range.ts';
import { goParseBool } from '../machinery/go-format.ts';

export type FlagType = 'string' | 'int' | 'bool' | 'duration' | 'stringList' | 'mapStringString' | 'mapStringBool';

/** The parsed value of each flag type; durations are in milliseconds. */
export interface FlagValueTypes {
  string: string;
  int: number;
  bool: boolean;
  duration: number;
  stringList: string[];
  mapStringString: Record<string, string>;
  mapStringBool: Record<string, boolean>;
}

export interface FlagSpec<T extends FlagType = FlagType> {
  /** Without dashes, words joined by `-`: `secure-port`. The options key is its camelCase form. */
  name: string;
  type: T;
  /** Without a default, string, int and duration flags are undefined when not given; the others are false, [] or {}. */
  default?: FlagValueTypes[T];
  help: string;
  /** mapStringString only: the value a key given without `=value` gets; without this, such a key is an error. */
  missingValue?: string;
  /** A further check of the parsed value; returns what is wrong, or undefined. */
  validate?: (value: FlagValueTypes[T]) => string | undefined;
}

export type AnyFlagSpec = { [T in FlagType]: FlagSpec<T> }[FlagType];

/** Declares one flag, keeping its literal name and type so the options type can be derived from the table. */
export function flag<const S extends AnyFlagSpec>(spec: S): S {
  return spec;
}

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type ValueOf<S extends AnyFlagSpec> = S extends { default: unknown }
  ? FlagValueTypes[S['type']]
  : S['type'] extends 'string' | 'int' | 'duration'
    ? FlagValueTypes[S['type']] | undefined
    : FlagValueTypes[S['type']];

/** The typed options object for a flag table: camelCase keys. */
export type FlagValues<Specs extends readonly AnyFlagSpec[]> = { [S in Specs[number] as CamelCase<S['name']>]: ValueOf<S> };

export interface ParsedFlags<V> {
  values: V;
  /** Arguments that are not flags, in order (everything after `--` included). */
  args: string[];
  /** Names of the flags given on the command line (pflag's "changed"). */
  changed: Set<string>;
  /** `--help` or `-h` was given; parsing stopped there. */
  help: boolean;
}

export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function parseBool(text: string): boolean {
  const value = goParseBool(text);
  if (value === undefined) throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
  return value;
}

/** strconv.ParseInt(text, 0, 64): optional sign, then decimal, 0x hex, 0o or leading-0 octal, or 0b binary. */
function parseInt64(text: string): number {
  const invalid = () => new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
  const match = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!match) throw invalid();
  const [, sign, digits] = match;
  // A leading 0 alone means octal in Go; BigInt reads the 0x, 0o and 0b forms itself.
  const magnitude = /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits.toLowerCase());
  const value = sign === '-' ? -magnitude : magnitude;
  // Go's limit is int64; ours is the exactly representable range, far beyond any flag's use.
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(text)}: value out of range`);
  }
  return Number(value);
}

function mapPairs(text: string): string[] {
  return text.split(',').map((pair) => pair.trim()).filter((pair) => pair !== '');
}

/** Parses one occurrence's text; `previous` is the value so far when the flag was already given. */
function parseValue(spec: AnyFlagSpec, text: string, previous: unknown): unknown {
  switch (spec.type) {
    case 'string':
      return text;
    case 'int':
      return parseInt64(text);
    case 'bool':
      return parseBool(text);
    case 'duration':
      return parseDuration(text);
    case 'stringList': {
      const items = text === '' ? [] : text.split(',');
      return [...((previous as string[] | undefined) ?? []), ...items];
    }
    case 'mapStringString': {
      const map: Record<string, string> = { ...((previous as Record<string, string> | undefined) ?? {}) };
      for (const pair of mapPairs(text)) {
        const at = pair.indexOf('=');
        if (at < 0) {
          if (spec.missingValue === undefined) throw new Error('malformed pair, expect string=string');
          map[pair] = spec.missingValue;
        } else {
          map[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
        }
      }
      return map;
    }
    case 'mapStringBool': {
      const map: Record<string, boolean> = { ...((previous as Record<string, boolean> | undefined) ?? {}) };
      for (const pair of mapPairs(text)) {
        const at = pair.indexOf('=');
        if (at < 0) throw new Error('malformed pair, expect string=bool');
        const key = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        try {
          map[key] = parseBool(value);
        } catch (error) {
          throw new Error(`invalid value of ${key}: ${value}, err: ${(error as Error).message}`);
        }
      }
      return map;
    }
  }
}

function defaultValue(spec: AnyFlagSpec): unknown {
  if (spec.default !== undefined) {
    const value: unknown = spec.default;
    if (Array.isArray(value)) return [...value];
    if (typeof value === 'object' && value !== null) return { ...value };
    return value;
  }
  switch (spec.type) {
    case 'bool':
      return false;
    case 'stringList':
      return [];
    case 'mapStringString':
    case 'mapStringBool':
      return {};
    default:
      return undefined;
  }
}

/** Parses `argv` (the arguments after the command name) against a flag table. Throws FlagError. */
export function parseFlags<const Specs extends readonly AnyFlagSpec[]>(specs: Specs, argv: readonly string[]): ParsedFlags<FlagValues<Specs>> {
  const byName = new Map<string, AnyFlagSpec>(specs.map((spec) => [spec.name, spec]));
  const values: Record<string, unknown> = {};
  for (const spec of specs) values[camelCase(spec.name)] = defaultValue(spec);
  const args: string[] = [];
  const changed = new Set<string>();
  const result = (help: boolean) => ({ values: values as FlagValues<Specs>, args, changed, help });

  const set = (spec: AnyFlagSpec, text: string) => {
    const key = camelCase(spec.name);
    // Lists and maps given again add to what the command line set before; the first use replaces the default.
    const previous = changed.has(spec.name) ? values[key] : undefined;
    let value: unknown;
    try {
      value = parseValue(spec, text, previous);
      const problem = (spec.validate as ((value: unknown) => string | undefined) | undefined)?.(value);
      if (problem !== undefined) throw new Error(problem);
    } catch (error) {
      throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--${spec.name}" flag: ${(error as Error).message}`);
    }
    values[key] = value;
    changed.add(spec.name);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      args.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) {
      const letters = arg.slice(1);
      if (letters[0] === 'h') return result(true);
      throw new FlagError(`unknown shorthand flag: '${letters[0]}' in ${arg}`);
    }
    const body = arg.slice(2);
    if (body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${arg}`);
    const equals = body.indexOf('=');
    const givenName = equals < 0 ? body : body.slice(0, equals);
    const name = givenName.replaceAll('_', '-');
    const spec = byName.get(name);
    if (!spec) {
      if (name === 'help') return result(true);
      throw new FlagError(`unknown flag: --${givenName}`);
    }
    if (equals >= 0) set(spec, body.slice(equals + 1));
    else if (spec.type === 'bool') set(spec, 'true');
    else if (i + 1 < argv.length) set(spec, argv[++i]);
    else throw new FlagError(`flag needs an argument: ${arg}`);
  }
  return result(false);
}

// ---- help text, laid out as pflag's FlagUsages lays it out ----

const TYPE_NAMES: Record<FlagType, string> = {
  string: 'string',
  int: 'int',
  bool: '',
  duration: 'duration',
  stringList: 'strings',
  mapStringString: 'mapStringString',
  mapStringBool: 'mapStringBool',
};

function sortedPairs(map: Record<string, unknown>): string {
  return Object.keys(map).sort().map((key) => `${key}=${map[key]}`).join(',');
}

/** The "(default ...)" suffix, omitted for zero values as pflag does. */
function defaultSuffix(spec: AnyFlagSpec): string {
  const value: unknown = spec.default;
  if (value === undefined) return '';
  switch (spec.type) {
    case 'string':
      return value === '' ? '' : ` (default ${JSON.stringify(value)})`;
    case 'int':
      return value === 0 ? '' : ` (default ${value})`;
    case 'bool':
      return value ? ' (default true)' : '';
    case 'duration':
      return value === 0 ? '' : ` (default ${formatDuration(value as number)})`;
    case 'stringList':
      return (value as string[]).length === 0 ? '' : ` (default [${(value as string[]).join(',')}])`;
    case 'mapStringString':
    case 'mapStringBool':
      return Object.keys(value as object).length === 0 ? '' : ` (default ${sortedPairs(value as Record<string, unknown>)})`;
  }
}

/** One line per flag, sorted by name, help texts aligned in one column. `helpFor` adds `-h, --help`. */
export function formatFlagUsages(specs: readonly AnyFlagSpec[], helpFor?: string): string {
  const rows: [string, string][] = [...specs]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((spec) => {
      const typeName = TYPE_NAMES[spec.type];
      return [`      --${spec.name}${typeName ? ` ${typeName}` : ''}`, spec.help + defaultSuffix(spec)];
    });
  if (helpFor !== undefined) rows.push(['  -h, --help', `help for ${helpFor}`]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows
    .map(([left, right]) => {
      // Continuation lines of multi-line help texts line up under the first.
      const indented = right.split('\n').join(`\n${' '.repeat(width + 3)}`);
      return `${left.padEnd(width)}   ${indented}`;
    })
    .join('\n') + '\n';
}

// ---- reusable checks for flag tables ----

export function portInRange(value: number): string | undefined {
  return Number.isInteger(value) && value >= 0 && value <= 65535 ? undefined : 'must be between 0 and 65535, inclusive';
}

export function ipAddress(value: string): string | undefined {
  return isIP(value.trim()) !== 0 ? undefined : `failed to parse IP: ${JSON.stringify(value)}`;
}

/** The message of what `parse` throws, or undefined when it parses. */
function problemOf(parse: () => unknown): string | undefined {
  try {
    parse();
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export function notNegative(value: number): string | undefined {
  return value < 0 ? 'must not be negative' : undefined;
}

// ---- the `capstan serve` command ----

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export const SERVE_FLAGS = [
  flag({
    name: 'data-dir',
    type: 'string',
    default: './.capstan',
    help: 'Directory for the embedded store, the generated certificates (pki/) and the admin kubeconfig.',
  }),
  flag({
    name: 'bind-address',
    type: 'string',
    default: '127.0.0.1',
    help: 'The IP address on which to listen for the --secure-port port. An unspecified address (0.0.0.0 or ::) listens on all interfaces.',
    validate: ipAddress,
  }),
  flag({
    name: 'secure-port',
    type: 'int',
    default: 6443,
    help: 'The port on which to serve HTTPS with authentication and authorization. 0 picks a free port.',
    validate: portInRange,
  }),
  flag({
    name: 'tls-cert-file',
    type: 'string',
    help: 'File containing the default x509 Certificate for HTTPS (CA cert, if any, concatenated after server cert). If not provided, a certificate signed by the CA in <data-dir>/pki is generated.',
  }),
  flag({ name: 'tls-private-key-file', type: 'string', help: 'File containing the default x509 private key matching --tls-cert-file.' }),
  flag({
    name: 'client-ca-file',
    type: 'string',
    help: 'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate. If not set, the CA in <data-dir>/pki is used.',
  }),
  flag({
    name: 'watch-history-retention',
    type: 'duration',
    default: 5 * 60_000,
    help: 'How long watch events are kept so that a watch can resume from an older resourceVersion.',
    validate: notNegative,
  }),
  flag({
    name: 'etcd-servers',
    type: 'stringList',
    default: [],
    help: 'List of etcd servers to connect with (scheme://ip:port), comma separated. If not set, state is kept in the embedded store in --data-dir.',
  }),
  flag({ name: 'etcd-prefix', type: 'string', default: '/registry', help: 'The prefix to prepend to all resource paths in etcd.' }),
  flag({ name: 'etcd-cafile', type: 'string', help: 'SSL Certificate Authority file used to secure etcd communication.' }),
  flag({ name: 'etcd-certfile', type: 'string', help: 'SSL certification file used to secure etcd communication.' }),
  flag({ name: 'etcd-keyfile', type: 'string', help: 'SSL key file used to secure etcd communication.' }),
  flag({
    name: 'etcd-compaction-interval',
    type: 'duration',
    default: 5 * 60_000,
    help: 'The interval of compaction requests. If 0, the compaction request from apiserver is disabled.',
    validate: notNegative,
  }),
  flag({
    name: 'runtime-config',
    type: 'mapStringString',
    default: {},
    missingValue: 'true',
    help: [
      'A set of key=value pairs that enable or disable built-in APIs; a key without a value means =true. Supported options are:',
      'v1=true|false for the core API group',
      '<group>/<version>=true|false for a specific API group and version (e.g. apps/v1=true)',
      '<group>/<version>/<resource>=true|false for one resource of a group and version',
      'api/all=true|false controls all API versions',
      'api/ga=true|false controls all API versions of the form v[0-9]+',
      'api/beta=true|false controls all API versions of the form v[0-9]+beta[0-9]+',
      'api/alpha=true|false controls all API versions of the form v[0-9]+alpha[0-9]+',
    ].join('\n'),
  }),
  flag({
    name: 'feature-gates',
    type: 'mapStringBool',
    default: {},
    help: 'A set of key=value pairs that describe feature gates for alpha/experimental features.',
  }),
  flag({
    name: 'authorization-mode',
    type: 'stringList',
    default: ['Node', 'RBAC'],
    help: 'Ordered list of plug-ins to do authorization on secure port, comma separated.',
  }),
  flag({
    name: 'anonymous-auth',
    type: 'bool',
    default: true,
    help: 'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
  }),
  flag({
    name: 'token-auth-file',
    type: 'string',
    help: 'If set, the file that will be used to secure the secure port of the API server via token authentication.',
  }),
  flag({
    name: 'authorization-config',
    type: 'string',
    help: 'File with Authorization Configuration (apiserver.config.svc.io/v1 AuthorizationConfiguration) to configure the authorizer chain. It is reloaded when it changes. This feature is mutually exclusive with the other --authorization-mode and --authorization-webhook-* flags.',
  }),
  flag({
    name: 'authorization-policy-file',
    type: 'string',
    help: 'File with authorization policy in json line by line format, used with --authorization-mode=ABAC, on the secure port.',
  }),
  flag({
    name: 'authorization-webhook-config-file',
    type: 'string',
    help: "File with webhook configuration in kubeconfig format, used with --authorization-mode=Webhook. The API server will query the remote service to determine access on the API server's secure port.",
  }),
  flag({
    name: 'authorization-webhook-version',
    type: 'string',
    default: 'v1beta1',
    help: 'The API version of the authorization.svc.io SubjectAccessReview to send to and expect from the webhook.',
    validate: (value) => (value === 'v1' || value === 'v1beta1' ? undefined : 'must be v1 or v1beta1'),
  }),
  flag({ name: 'authorization-webhook-cache-authorized-ttl', type: 'duration', default: 5 * 60_000, help: "The duration to cache 'authorized' responses from the webhook authorizer.", validate: notNegative }),
  flag({ name: 'authorization-webhook-cache-unauthorized-ttl', type: 'duration', default: 30_000, help: "The duration to cache 'unauthorized' responses from the webhook authorizer.", validate: notNegative }),
  flag({
    name: 'service-account-issuer',
    type: 'stringList',
    default: [],
    help: 'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted. If not set, https://kubernetes.default.svc.cluster.local.',
  }),
  flag({
    name: 'service-account-key-file',
    type: 'stringList',
    default: [],
    help: 'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, the public key of the signing key is used.',
  }),
  flag({
    name: 'service-account-signing-key-file',
    type: 'string',
    help: 'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key. If not set, a key generated in <data-dir>/pki/sa.key is used.',
  }),
  flag({
    name: 'service-account-max-token-expiration',
    type: 'duration',
    help: 'The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.',
    validate: (value) => (value !== 0 && value < 3_600_000 ? 'must be set longer than 3600 seconds' : undefined),
  }),
  flag({
    name: 'api-audiences',
    type: 'stringList',
    default: [],
    help: 'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If not set, a single element list containing the first --service-account-issuer.',
  }),
  flag({
    name: 'enable-bootstrap-token-auth',
    type: 'bool',
    default: false,
    help: "Enable to allow secrets of type 'bootstrap.platform.io/token' in the 'kube-system' namespace to be used for TLS bootstrapping authentication.",
  }),
  flag({
    name: 'controllers',
    type: 'stringList',
    default: ['*'],
    help: "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'. Off by default: bootstrapsigner, tokencleaner.",
  }),
  flag({
    name: 'cluster-signing-duration',
    type: 'duration',
    default: 365 * 24 * 60 * 60 * 1000,
    help: 'The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds.',
    validate: (value) => (value <= 0 ? 'must be greater than 0' : undefined),
  }),
  flag({
    name: 'show-hidden-metrics-for-version',
    type: 'string',
    help: "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
  }),
  flag({ name: 'audit-policy-file', type: 'string', help: 'Path to the file that defines the audit policy configuration.' }),
  flag({ name: 'audit-log-path', type: 'string', help: "If set, all requests coming to the apiserver will be logged to this file.  '-' means standard out." }),
  flag({
    name: 'audit-log-format',
    type: 'string',
    default: 'json',
    help: 'Format of saved audits. "legacy" indicates 1-line text format for each event. "json" indicates structured json format. Known formats are legacy,json.',
  }),
  flag({ name: 'audit-log-maxage', type: 'int', default: 0, help: 'The maximum number of days to retain old audit log files based on the timestamp encoded in their filename.' }),
  flag({ name: 'audit-log-maxbackup', type: 'int', default: 0, help: "The maximum number of old audit log files to retain. Setting a value of 0 will mean there's no restriction on the number of files." }),
  flag({ name: 'audit-log-maxsize', type: 'int', default: 0, help: 'The maximum size in megabytes of the audit log file before it gets rotated.' }),
  flag({ name: 'audit-log-compress', type: 'bool', default: false, help: 'If set, the rotated log files will be compressed using gzip.' }),
  flag({
    name: 'audit-log-mode',
    type: 'string',
    default: 'blocking',
    help: 'Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking,blocking-strict.',
  }),
  flag({ name: 'audit-log-version', type: 'string', default: 'audit.svc.io/v1', help: 'API group and version used for serializing audit events written to log.' }),
  flag({
    name: 'service-cluster-ip-range',
    type: 'string',
    default: DEFAULT_SERVICE_CLUSTER_IP_RANGE,
    help: 'A CIDR notation IP range from which to assign service cluster IPs (one IPv4 or one IPv6 range). This must not overlap with any IP ranges assigned to nodes or pods. The first address goes to the kubernetes Service in default.',
    validate: (value) => problemOf(() => parseServiceIPRange(value)),
  }),
  flag({
    name: 'service-node-port-range',
    type: 'string',
    default: DEFAULT_SERVICE_NODE_PORT_RANGE,
    help: "A port range to reserve for services with NodePort visibility. This must not overlap with the ephemeral port range on nodes. Example: '30000-32767'. Inclusive at both ends of the range.",
    validate: (value) => problemOf(() => parsePortRange(value)),
  }),
  flag({
    name: 'log-level',
    type: 'string',
    default: 'info',
    help: `Minimum level of log lines written: ${LOG_LEVELS.join(', ')}.`,
    validate: (value) => (LOG_LEVELS.includes(value) ? undefined : `must be one of ${LOG_LEVELS.join(', ')}`),
  }),
  flag({
    name: 'shutdown-timeout',
    type: 'duration',
    default: 60_000,
    help: 'How long to wait on SIGTERM or SIGINT for requests in flight to finish before the server exits.',
    validate: notNegative,
  }),
] as const;

export type ServeOptions = FlagValues<typeof SERVE_FLAGS>;

export interface ParsedServeFlags {
  options: ServeOptions;
  /** Names of the flags given explicitly. */
  changed: Set<string>;
  /** `--help` was asked for: print serveHelp() and exit 0. */
  help: boolean;
}

/** Parses the arguments after `capstan serve`. Throws FlagError, also for stray positional arguments. */
export function parseServeFlags(argv: readonly string[]): ParsedServeFlags {
  const parsed = parseFlags(SERVE_FLAGS, argv);
  const stray = parsed.args.filter((arg) => arg !== '');
  if (!parsed.help && stray.length > 0) {
    throw new FlagError(`"capstan serve" does not take any arguments, got [${parsed.args.map((arg) => JSON.stringify(arg)).join(' ')}]`);
  }
  return { options: parsed.values, changed: parsed.changed, help: parsed.help };
}

export function serveHelp(): string {
  return [
    'Run the API server.',
    '',
    'Usage:',
    '  capstan serve [flags]',
    '',
    'Flags:',
    formatFlagUsages(SERVE_FLAGS, 'serve'),
  ].join('\n');
}
