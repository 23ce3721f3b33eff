// Turns the parsed `capstan serve` flags into server options. Flags whose feature has not landed yet are
// refused with a clear error rather than silently ignored.
import { readFile } from 'node:fs/promises';
import type { ServeOptions } from './flags.ts';
import type { ServerOptions } from '../server/server.ts';
import { EtcdStorage } from '../storage/etcd.ts';

const NOT_YET: Record<string, string> = {
  'feature-gates': 'feature gates',
  'authorization-mode': 'authorization modes',
  'anonymous-auth': 'anonymous authentication settings',
  'token-auth-file': 'token authentication',
  'log-level': 'log levels',
};

export async function serverOptionsFromFlags(o: ServeOptions, changed: Set<string>): Promise<ServerOptions> {
  for (const name of changed) {
    if (NOT_YET[name]) throw new Error(`--${name}: ${NOT_YET[name]} are not supported by this version of capstan yet`);
  }
  const opts: ServerOptions = {
    dataDir: o.dataDir,
    bindAddress: o.bindAddress,
    port: o.securePort,
    tlsCertFile: o.tlsCertFile,
    tlsPrivateKeyFile: o.tlsPrivateKeyFile,
    clientCaFile: o.clientCaFile,
    watchHistoryRetentionMs: o.watchHistoryRetention,
    runtimeConfig: o.runtimeConfig,
    shutdownTimeoutMs: o.shutdownTimeout,
  };
  if (o.etcdServers?.length) {
    const read = (f: string | undefined) => (f ? readFile(f) : Promise.resolve(undefined));
    const [ca, cert, key] = await Promise.all([read(o.etcdCafile), read(o.etcdCertfile), read(o.etcdKeyfile)]);
    opts.storage = await EtcdStorage.connect({ endpoints: o.etcdServers, prefix: o.etcdPrefix, tls: ca || cert || key ? { ca, cert, key } : undefined });
    opts.compactionIntervalMs = o.etcdCompactionInterval;
  }
  return opts;
}
