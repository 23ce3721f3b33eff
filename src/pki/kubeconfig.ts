// The admin kubeconfig: one cluster, one user with a client certificate, one context, all inline,
// so the file works wherever it is copied.
import { chmod, rename, writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { canonicalIp } from './ip.ts';
import { isIP } from 'node:net';

export interface KubeconfigOptions {
  /** The API server URL, e.g. https://127.0.0.1:6443. */
  server: string;
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  clusterName?: string;
  userName?: string;
  contextName?: string;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export function buildKubeconfig(options: KubeconfigOptions): string {
  const clusterName = options.clusterName ?? 'capstan';
  const userName = options.userName ?? 'capstan-admin';
  const contextName = options.contextName ?? 'capstan';
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster: { server: options.server, 'certificate-authority-data': base64(options.caPem) } }],
    users: [
      {
        name: userName,
        user: { 'client-certificate-data': base64(options.clientCertPem), 'client-key-data': base64(options.clientKeyPem) },
      },
    ],
    contexts: [{ name: contextName, context: { cluster: clusterName, user: userName } }],
    'current-context': contextName,
    preferences: {},
  }, { lineWidth: 0 });
}

/**
 * The URL clients should dial for a server bound to `bindAddress`: a wildcard bind is reached
 * through loopback, and IPv6 addresses are bracketed.
 */
export function serverUrl(bindAddress: string, port: number): string {
  let host = bindAddress.trim();
  if (host === '' || host === '0.0.0.0') host = '127.0.0.1';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) === 6) {
    const ip = canonicalIp(bare);
    host = ip === '::' ? '[::1]' : isIP(ip) === 4 ? ip : `[${ip}]`;
  }
  return `https://${host}:${port}`;
}

/** Writes a kubeconfig readable only by its owner: it holds a private key. */
export async function writeKubeconfig(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
