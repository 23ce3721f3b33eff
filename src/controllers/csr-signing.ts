// The CSR signing controller (Kubernetes' csrsigning): issues approved requests of the well-known signers
// (`platform.io/apiserver-client`, `platform.io/apiserver-client-nodeagent`, `platform.io/nodeagent-serving`)
// with the server's CA, writing `status.certificate` through /status; a request that breaks its signer's
// rules gets a `Failed` condition instead. The lifetime is spec.expirationSeconds, kept between 10 minutes
// and --cluster-signing-duration (default one year), as Kubernetes' PermissiveSigningPolicy sets it.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { APPROVED, FAILED, conditionsOf, specOf, statusOf } from '../apis/certificates/csr-validation.ts';
import { loadCertificateAuthority, type CertificateAuthority, type PemPair } from '../pki/authority.ts';
import { signCertificate, BACKDATE_MS, type KeyUsageName } from '../pki/sign.ts';
import { nowRfc3339 } from '../registry/names.ts';
import { controllerContext } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { WELL_KNOWN_SIGNERS, parseRequest, signerProblem, type ParsedRequest } from './csr-requests.ts';

export const DEFAULT_CLUSTER_SIGNING_DURATION_MS = 365 * 24 * 60 * 60 * 1000;
/** Twice the backdate: a shorter request is raised to this. */
const MIN_DURATION_MS = 10 * 60 * 1000;
/** Certificates shorter than this are not backdated at their end (5 minutes is ~1% of 8 hours). */
const SHORT_MS = 8 * 60 * 60 * 1000;

export interface CsrSigningDeps {
  csrs: ResourceStore;
  /** The CA that signs (the server's). */
  ca: PemPair;
  /** --cluster-signing-duration: the longest lifetime issued (default one year). */
  maxDurationMs?: number;
  log(line: string): void;
  resyncMs?: number;
}

const KEY_USAGES: Record<string, KeyUsageName> = {
  'signing': 'digitalSignature', 'digital signature': 'digitalSignature', 'content commitment': 'nonRepudiation',
  'key encipherment': 'keyEncipherment', 'key agreement': 'keyAgreement', 'data encipherment': 'dataEncipherment',
  'cert sign': 'keyCertSign', 'crl sign': 'cRLSign', 'encipher only': 'encipherOnly', 'decipher only': 'decipherOnly',
};

const EXTENDED_KEY_USAGES: Record<string, string> = {
  'any': '2.5.29.37.0', 'server auth': '1.3.6.1.5.5.7.3.1', 'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3', 'email protection': '1.3.6.1.5.5.7.3.4', 's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5', 'ipsec tunnel': '1.3.6.1.5.5.7.3.6', 'ipsec user': '1.3.6.1.5.5.7.3.7',
  'timestamping': '1.3.6.1.5.5.7.3.8', 'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3', 'netscape sgc': '2.16.840.1.113730.4.1',
};

/** The lifetime to issue for a request: what it asks, within [10 minutes, the maximum]. */
export function certificateDurationMs(expirationSeconds: number | null | undefined, maxMs: number): number {
  if (typeof expirationSeconds !== 'number') return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  if (requested < MIN_DURATION_MS) return MIN_DURATION_MS;
  return requested;
}

/** Signs the request's key and names for `usages`, valid from 5 minutes ago for `durationMs`. */
export async function issueForRequest(ca: CertificateAuthority, req: ParsedRequest, usages: string[], durationMs: number, now = Date.now()): Promise<string> {
  const caNotAfter = ca.certificate.notAfter.getTime();
  if (now >= caNotAfter) throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${ca.certificate.notAfter.toISOString()}`);
  const notAfter = durationMs < SHORT_MS ? now + durationMs : now + durationMs - BACKDATE_MS;
  return signCertificate(ca, {
    publicKey: req.request.publicKey,
    subject: req.request.subjectName,
    dnsNames: req.dnsNames,
    ipAddresses: req.ipAddresses,
    emailAddresses: req.emailAddresses,
    uris: req.uris,
    keyUsages: [...new Set(usages.map((u) => KEY_USAGES[u]).filter((u): u is KeyUsageName => !!u))],
    extendedKeyUsages: [...new Set(usages.map((u) => EXTENDED_KEY_USAGES[u]).filter((u): u is string => !!u))],
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(Math.min(notAfter, caNotAfter)),
  });
}

export function startCsrSigning(deps: CsrSigningDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('certificate-controller', 'status');
  const maxMs = deps.maxDurationMs ?? DEFAULT_CLUSTER_SIGNING_DURATION_MS;
  let ca: CertificateAuthority | undefined;

  const queue = new WorkQueue(async (name) => {
    const csr = deps.csrs.current('', name)?.object as ApiObject | undefined;
    if (!csr || statusOf(csr).certificate) return;
    const conditions = conditionsOf(csr);
    const holds = (type: string) => conditions.some((c) => c?.type === type && c.status === 'True');
    if (!holds(APPROVED) || holds(FAILED)) return;
    const spec = specOf(csr);
    if (!WELL_KNOWN_SIGNERS.includes(spec.signerName ?? '')) return;
    let req: ParsedRequest;
    try {
      req = parseRequest(csr);
    } catch (err) {
      deps.log(`csrsigning: unable to parse csr "${name}": ${(err as Error).message}`);
      return;
    }
    const usages = spec.usages ?? [];
    const problem = signerProblem(spec.signerName!, req, usages);
    if (problem) {
      await updateObject(deps.csrs, ctx, '', name, (obj) => {
        const status = (obj.status ??= {}) as { conditions?: unknown[]; certificate?: string };
        if (status.certificate || conditionsOf(obj).some((c) => c?.type === FAILED)) return;
        status.conditions = [...conditionsOf(obj), { type: FAILED, status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: nowRfc3339() }];
      }, { uid: csr.metadata.uid, subresource: 'status' });
      return;
    }
    ca ??= loadCertificateAuthority(deps.ca);
    const pem = await issueForRequest(ca, req, usages, certificateDurationMs(spec.expirationSeconds, maxMs));
    await updateObject(deps.csrs, ctx, '', name, (obj) => {
      const status = (obj.status ??= {}) as { certificate?: string };
      // Issued meanwhile (by another signer run): the certificate is immutable once set.
      status.certificate ||= Buffer.from(pem).toString('base64');
    }, { uid: csr.metadata.uid, subresource: 'status' });
  }, { name: 'csrsigning', log: deps.log });

  const informer = startInformer({
    stores: [deps.csrs],
    onEvent(_store, e) { if (!e.deleted) queue.add(e.current.name); },
    resync() { for (const c of deps.csrs.cache.list()) queue.add(c.name); },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'csrsigning',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
