// The admin kubeconfig: one cluster, one user with a client certificate, one context, all inline,
// so the file works wherever it is copied.
import { chmod, rename, writeFile } from 'node:fs/promises';
import { canonicalIp, ipFamily } from './ip.ts';

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

// Written by hand rather than through the YAML library: the shape is fixed, and the first use of the
// library's stringifier costs a few milliseconds of every start.
export function buildKubeconfig(options: KubeconfigOptions): string {
  const cluster = scalar(options.clusterName ?? 'capstan');
  const user = scalar(options.userName ?? 'capstan-admin');
  const context = scalar(options.contextName ?? 'capstan');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `  - name: ${cluster}`,
    '    cluster:',
    `      server: ${scalar(options.server)}`,
    `      certificate-authority-data: ${scalar(base64(options.caPem))}`,
    'users:',
    `  - name: ${user}`,
    '    user:',
    `      client-certificate-data: ${scalar(base64(options.clientCertPem))}`,
    `      client-key-data: ${scalar(base64(options.clientKeyPem))}`,
    'contexts:',
    `  - name: ${context}`,
    '    context:',
    `      cluster: ${cluster}`,
    `      user: ${user}`,
    `current-context: ${context}`,
    'preferences: {}',
    '',
  ].join('\n');
}

/** A YAML string: plain when nothing in it can read as anything else, else double-quoted (a JSON string is a
 *  valid YAML double-quoted scalar). */
function scalar(text: string): string {
  const plain = /^[A-Za-z][A-Za-z0-9._/+=-]*$/.test(text) && !/^(y|n|yes|no|true|false|on|off|null)$/i.test(text);
  return plain ? text : JSON.stringify(text);
}

/**
 * The URL clients should dial for a server bound to `bindAddress`: a wildcard bind is reached
 * through loopback, and IPv6 addresses are bracketed.
 */
export function serverUrl(bindAddress: string, port: number): string {
  let host = bindAddress.trim();
  if (host === '' || host === '0.0.0.0') host = '127.0.0.1';
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipFamily(bare) === 6) {
    const ip = canonicalIp(bare);
    host = ip === '::' ? '[::1]' : ipFamily(ip) === 4 ? ip : `[${ip}]`;
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
