// What the certificate controllers read in a CertificateSigningRequest: the PKCS#10 request's subject,
// names and key, and the rules of the well-known signers (Kubernetes' pkg/apis/certificates helpers:
// ValidateKubeletClientCSR, ValidateKubeletServingCSR, and the apiserver-client usages), with their messages.
import type { ApiObject } from '../apis/meta/v1.ts';
import { x509, type X509 } from '../pki/x509.ts';
import { bytesOf, specOf } from '../apis/certificates/csr-validation.ts';
import { binaryString, decodePem } from '../apis/certificates/pem.ts';

export const APISERVER_CLIENT_SIGNER = 'platform.io/apiserver-client';
export const NODE_CLIENT_SIGNER = 'platform.io/apiserver-client-nodeagent';
export const NODE_SERVING_SIGNER = 'platform.io/nodeagent-serving';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';

export interface ParsedRequest {
  request: InstanceType<typeof x509.Pkcs10CertificateRequest>;
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

/** The request of a CSR, parsed; throws with the reason when it cannot be read. */
export function parseRequest(csr: ApiObject): ParsedRequest {
  const pem = bytesOf(specOf(csr).request);
  const found = pem && decodePem(binaryString(pem));
  if (!found || found.block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const request = new x509.Pkcs10CertificateRequest(found.block.bytes);
  const san = request.extensions.find((e) => e instanceof x509.SubjectAlternativeNameExtension) as X509.SubjectAlternativeNameExtension | undefined;
  const names = san?.names.items ?? [];
  const of = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
  const cn = request.subjectName.getField('CN');
  return {
    request,
    // Go keeps the last CN of the subject.
    commonName: cn[cn.length - 1] ?? '',
    organizations: request.subjectName.getField('O'),
    dnsNames: of('dns'),
    ipAddresses: of('ip'),
    emailAddresses: of('email'),
    uris: of('url'),
  };
}

const sameSet = (a: Set<string>, b: string[]) => a.size === b.length && b.every((u) => a.has(u));

const CLIENT_USAGES = ['client auth', 'digital signature', 'key encipherment'];
const CLIENT_USAGES_NO_RSA = ['client auth', 'digital signature'];
const SERVING_USAGES = ['digital signature', 'key encipherment', 'server auth'];
const SERVING_USAGES_NO_RSA = ['digital signature', 'server auth'];

const goList = (values: string[]) => `[${values.join(' ')}]`;
const onlySystemNodes = (req: ParsedRequest) => req.organizations.length === 1 && req.organizations[0] === NODES_GROUP;

/** Why this is not a node agent's client certificate request, or undefined when it is. */
export function nodeClientProblem(req: ParsedRequest, usages: string[]): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length) return 'IP subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith(NODE_USER_PREFIX)) return 'subject common name does not begin with system:node:';
  const set = new Set(usages);
  if (!sameSet(set, CLIENT_USAGES) && !sameSet(set, CLIENT_USAGES_NO_RSA)) return `usages did not match ${goList(CLIENT_USAGES)}`;
  return undefined;
}

/** Why this is not a node agent's serving certificate request, or undefined when it is. */
export function nodeServingProblem(req: ParsedRequest, usages: string[]): string | undefined {
  if (!onlySystemNodes(req)) return 'subject organization is not system:nodes';
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  const set = new Set(usages);
  if (!sameSet(set, SERVING_USAGES) && !sameSet(set, SERVING_USAGES_NO_RSA)) return `usages did not match ${goList(SERVING_USAGES)}`;
  if (!req.commonName.startsWith(NODE_USER_PREFIX)) return 'subject common name does not begin with system:node:';
  return undefined;
}

/** An API server client certificate needs `client auth`, and may add only `digital signature` and `key encipherment`. */
export function apiserverClientProblem(usages: string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** The signer rule a request breaks, per well-known signer; undefined when it is fine (or not ours). */
export function signerProblem(signerName: string, req: ParsedRequest, usages: string[]): string | undefined {
  switch (signerName) {
    case NODE_SERVING_SIGNER: return nodeServingProblem(req, usages);
    case NODE_CLIENT_SIGNER: return nodeClientProblem(req, usages);
    case APISERVER_CLIENT_SIGNER: return apiserverClientProblem(usages);
    default: return undefined;
  }
}

export const WELL_KNOWN_SIGNERS: readonly string[] = [APISERVER_CLIENT_SIGNER, NODE_CLIENT_SIGNER, NODE_SERVING_SIGNER];
