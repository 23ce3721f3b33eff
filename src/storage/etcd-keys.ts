// Where the storage interface's keys live in etcd.
//
// Callers use full keys rooted at `/registry` (`/registry/core/configmaps/default/a`). The etcd prefix
// (`--etcd-prefix`, default `/registry`) says where that root lives in etcd, as in Kubernetes: with
// prefix `/tenant-a/registry` the key above is stored at `/tenant-a/registry/core/configmaps/default/a`.
// Keys outside `/registry` (tests use some) go under the prefix's parent when the prefix ends in
// `/registry` (so the mapping is one plain string prepend and every key stays apart), and under the
// prefix itself otherwise.

const ROOT = '/registry';

export class EtcdKeys {
  /** Where `/registry` lives in etcd, without a trailing slash. */
  readonly prefix: string;
  /** What keys outside `/registry` get in front of them. */
  readonly #outside: string;

  constructor(prefix = ROOT) {
    if (!prefix.startsWith('/')) throw new Error(`etcd prefix must start with "/": ${JSON.stringify(prefix)}`);
    this.prefix = prefix.replace(/\/+$/, '');
    this.#outside = this.prefix.endsWith(ROOT) ? this.prefix.slice(0, -ROOT.length) : this.prefix;
  }

  /** The etcd key (as text) for a caller's key or key prefix. */
  toEtcd(key: string): string {
    if (key === ROOT || key.startsWith(`${ROOT}/`)) return this.prefix + key.slice(ROOT.length);
    return this.#outside + key;
  }

  /** The etcd key bytes for a caller's key. */
  encode(key: string): Buffer {
    return Buffer.from(this.toEtcd(key), 'utf8');
  }

  /** The caller's key for an etcd key found under the caller's `prefix`. */
  fromEtcd(etcdKey: Buffer, prefix: string, etcdPrefix: Buffer): string {
    return prefix + etcdKey.subarray(etcdPrefix.length).toString('utf8');
  }

  /** A key that no object uses, for reads that only want a response header. */
  probeKey(): Buffer {
    return Buffer.from(`${this.prefix}\u0000`, 'utf8');
  }
}

/** The first etcd key after every key that starts with `prefix` (byte-wise, as etcd orders keys). */
export function etcdRangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i -= 1) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  // Only 0xff bytes: the range runs to the end of the keyspace, which etcd spells as "\0".
  return Buffer.from([0]);
}
