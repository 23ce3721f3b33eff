// The CSR approving controller (Kubernetes' csrapproving): approves a node agent's request for its client
// certificate (`platform.io/apiserver-client-nodeagent`, subject `system:node:<name>` in `system:nodes`, client
// usages) when the requester may create `certificatesigningrequests/selfnodeclient` (a renewal: the requester
// is the node itself) or `certificatesigningrequests/nodeclient` in certificates.svc.io. Other signers'
// requests are never approved here.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';
import { APPROVED, DENIED, conditionsOf, specOf, statusOf } from '../apis/certificates/csr-validation.ts';
import { GROUP } from '../apis/certificates/certificatesigningrequest.ts';
import { controllerContext } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';
import { NODE_CLIENT_SIGNER, nodeClientProblem, parseRequest, type ParsedRequest } from './csr-requests.ts';

export interface CsrApprovingDeps {
  csrs: ResourceStore;
  /** The server's authorizer (the SubjectAccessReview Kubernetes' approver sends). */
  authorize(attrs: Attributes): Promise<Decision>;
  log(line: string): void;
  resyncMs?: number;
}

interface Recognizer {
  subresource: string;
  recognize(csr: ApiObject, req: ParsedRequest): boolean;
  message: string;
}

const isNodeClient = (csr: ApiObject, req: ParsedRequest) =>
  specOf(csr).signerName === NODE_CLIENT_SIGNER && nodeClientProblem(req, specOf(csr).usages ?? []) === undefined;

/** Renewal first: a node asking for its own identity needs only selfnodeclient. */
const RECOGNIZERS: Recognizer[] = [
  {
    subresource: 'selfnodeclient',
    recognize: (csr, req) => specOf(csr).username === req.commonName && isNodeClient(csr, req),
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  {
    subresource: 'nodeclient',
    recognize: isNodeClient,
    message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
  },
];

export function startCsrApproving(deps: CsrApprovingDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('certificate-controller', 'approval');

  const queue = new WorkQueue(async (name) => {
    const csr = deps.csrs.current('', name)?.object as ApiObject | undefined;
    if (!csr || statusOf(csr).certificate) return;
    if (conditionsOf(csr).some((c) => c?.type === APPROVED || c?.type === DENIED)) return;
    let req: ParsedRequest;
    try {
      req = parseRequest(csr);
    } catch (err) {
      deps.log(`csrapproving: unable to parse csr "${name}": ${(err as Error).message}`);
      return;
    }
    const tried: string[] = [];
    for (const r of RECOGNIZERS) {
      if (!r.recognize(csr, req)) continue;
      tried.push(r.subresource);
      const spec = specOf(csr);
      const decision = await deps.authorize({
        user: { username: spec.username ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra ?? undefined },
        verb: 'create', isResourceRequest: true, path: '', namespace: '',
        apiGroup: GROUP, apiVersion: '*', resource: 'certificatesigningrequests', subresource: r.subresource, name: '',
      });
      if (decision.decision !== 'allow') continue;
      await updateObject(deps.csrs, ctx, '', name, (obj) => {
        const status = (obj.status ??= {}) as { conditions?: unknown[] };
        if (conditionsOf(obj).some((c) => c?.type === APPROVED || c?.type === DENIED)) return;
        status.conditions = [...conditionsOf(obj), { type: APPROVED, status: 'True', reason: 'AutoApproved', message: r.message }];
      }, { uid: csr.metadata.uid, subresource: 'approval' });
      return;
    }
    // Recognized but not permitted (yet): look again later, as a binding may come.
    if (tried.length) throw new Requeue(`recognized csr "${name}" as [${tried.join(' ')}] but subject access review was not approved`);
  }, { name: 'csrapproving', log: deps.log, retryMs: 200, maxRetryMs: 10_000 });

  const informer = startInformer({
    stores: [deps.csrs],
    onEvent(_store, e) { if (!e.deleted) queue.add(e.current.name); },
    resync() { for (const c of deps.csrs.cache.list()) queue.add(c.name); },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'csrapproving',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
