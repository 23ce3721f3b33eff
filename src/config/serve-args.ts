// The flags of `capstan serve`, Kubernetes style: `--name=value` or `--name value`.
import type { ServerOptions } from '../server/server.ts';

interface FlagSpec {
  name: string;
  help: string;
  def?: string;
  apply(opts: ServerOptions, value: string): void;
}

function parseDurationMs(flag: string, v: string): number {
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let total = 0, consumed = 0, m: RegExpExecArray | null;
  while ((m = re.exec(v))) { total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms']; consumed += m[0].length; }
  if (v === '0') return 0;
  if (!consumed || consumed !== v.length) throw new Error(`invalid argument "${v}" for "--${flag}" flag: time: invalid duration "${v}"`);
  return total;
}

function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new Error(`invalid argument "${v}" for "--secure-port" flag: must be a port number between 0 and 65535`);
  return n;
}

const FLAGS: FlagSpec[] = [
  { name: 'data-dir', def: './.capstan', help: 'folder for the database, the PKI and the admin kubeconfig', apply: (o, v) => { o.dataDir = v; } },
  { name: 'bind-address', def: '127.0.0.1', help: 'address to listen on', apply: (o, v) => { o.bindAddress = v; } },
  { name: 'secure-port', def: '6443', help: 'HTTPS port (0 picks a free one)', apply: (o, v) => { o.port = parsePort(v); } },
  { name: 'tls-cert-file', help: 'serving certificate (PEM); generated when absent', apply: (o, v) => { o.tlsCertFile = v; } },
  { name: 'tls-private-key-file', help: 'key of --tls-cert-file (PEM)', apply: (o, v) => { o.tlsPrivateKeyFile = v; } },
  { name: 'client-ca-file', help: 'CA bundle that signs accepted client certificates; the generated CA by default', apply: (o, v) => { o.clientCaFile = v; } },
  { name: 'watch-history-retention', def: '5m', help: 'how long watch history and continue tokens stay valid', apply: (o, v) => { o.watchHistoryRetentionMs = parseDurationMs('watch-history-retention', v); } },
  { name: 'runtime-config', help: 'comma-separated {group}/{version}[=true|false] and {group}/{version}/{resource} switches', apply: (o, v) => {
    const rc: Record<string, string> = { ...o.runtimeConfig };
    for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
      const eq = part.indexOf('=');
      const key = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? 'true' : part.slice(eq + 1);
      if (value !== 'true' && value !== 'false') throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
      rc[key] = value;
    }
    o.runtimeConfig = rc;
  } },
];

export function serveUsage(): string {
  return 'Flags:\n' + FLAGS.map((f) => `  --${f.name}${f.def !== undefined ? ` (default ${JSON.stringify(f.def)})` : ''}\n      ${f.help}`).join('\n') + '\n';
}

export function parseServeArgs(args: string[]): ServerOptions | 'help' {
  const opts: ServerOptions = { port: 6443 };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') return 'help';
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const spec = FLAGS.find((f) => f.name === name);
    if (!spec) throw new Error(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < args.length) value = args[++i];
    else throw new Error(`flag needs an argument: --${name}`);
    spec.apply(opts, value);
  }
  return opts;
}
