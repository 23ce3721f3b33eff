// TLS material for the clients and the floor: the PEMs from Capstan's admin kubeconfig, Capstan's serving
// certificate for the floor, or, before Capstan runs, a freshly generated self-signed one.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parse as parseYaml } from 'yaml';

/** What a load generator needs to talk to one system; ca/cert/key are PEM text. */
export interface Target {
  url: string;
  ca?: string;
  cert?: string;
  key?: string;
}

export interface KubeconfigCredentials { server: string; ca?: string; cert?: string; key?: string }

function b64(text: unknown): string | undefined {
  return typeof text === 'string' && text.length > 0 ? Buffer.from(text, 'base64').toString('utf8') : undefined;
}

/** Reads the first cluster and user of a kubeconfig (YAML or JSON text, or an already parsed object). */
export function credentialsFromKubeconfig(source: string | Record<string, unknown>): KubeconfigCredentials {
  const doc = (typeof source === 'string' ? parseYaml(source) : source) as Record<string, any>;
  const contextName = doc['current-context'];
  const context = (doc.contexts ?? []).find((c: any) => c.name === contextName)?.context ?? doc.contexts?.[0]?.context ?? {};
  const cluster = ((doc.clusters ?? []).find((c: any) => c.name === context.cluster) ?? doc.clusters?.[0])?.cluster ?? {};
  const user = ((doc.users ?? []).find((u: any) => u.name === context.user) ?? doc.users?.[0])?.user ?? {};
  if (typeof cluster.server !== 'string') throw new Error('kubeconfig has no cluster server');
  return {
    server: cluster.server,
    ca: b64(cluster['certificate-authority-data']),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  };
}

export function readKubeconfigFile(path: string): KubeconfigCredentials {
  return credentialsFromKubeconfig(readFileSync(path, 'utf8'));
}

export interface ServingCert { cert: string; key: string; source: string }

/** Capstan's serving certificate from its data directory, if it wrote one. */
export function capstanServingCert(dataDir: string): ServingCert | null {
  const certPath = join(dataDir, 'pki', 'apiserver.crt');
  const keyPath = join(dataDir, 'pki', 'apiserver.key');
  if (!existsSync(certPath) || !existsSync(keyPath)) return null;
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), source: certPath };
}

/** Describes a certificate's key algorithm, e.g. "ECDSA P-256" or "RSA 2048". */
export function describeKeyAlgorithm(certPem: string): string {
  const key = new X509Certificate(certPem).publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'ec') return `ECDSA ${curveName(details.namedCurve)}`;
  if (key.asymmetricKeyType === 'rsa') return `RSA ${details.modulusLength}`;
  return String(key.asymmetricKeyType);
}

function curveName(openSslName: string | undefined): string {
  return ({ prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' } as Record<string, string>)[openSslName ?? ''] ?? String(openSslName);
}

/** A self-signed serving certificate for 127.0.0.1, made with the openssl command line tool. */
export function generateServingCert(algorithm: 'ECDSA P-256' | 'RSA 2048' = 'ECDSA P-256'): ServingCert {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cert-'));
  try {
    const keyArgs = algorithm === 'RSA 2048' ? ['-newkey', 'rsa:2048'] : ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'];
    execFileSync('openssl', ['req', '-x509', ...keyArgs, '-nodes', '-days', '2', '-subj', '/CN=bench-floor',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8'), source: `generated ${algorithm}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
