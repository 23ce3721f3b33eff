// What a request to a deprecated API version does besides its own work (the spec's "Deprecated-API request
// behaviour", Kubernetes' installer and endpoint metrics): the answer carries the version's deprecation
// `Warning` header, the audit event the annotation `svc.io/deprecated: "true"` (and `svc.io/removed-release`
// when the removal release is known), and `apiserver_requested_deprecated_apis` is set to 1 for the
// group, version, resource, sub-resource and removal release.
import type { ServerResponse } from 'node:http';
import type { ApiResource } from './apis.ts';
import type { RequestInfo } from './requestinfo.ts';
import { warningHeader, type Response } from './respond.ts';
import type { ApiServerMetrics } from './metrics/apiserver.ts';

export const DEPRECATED_ANNOTATION = 'svc.io/deprecated';
export const REMOVED_RELEASE_ANNOTATION = 'svc.io/removed-release';

export interface Annotator {
  annotate(key: string, value: string): void;
}

export function markDeprecatedRequest(res: Response, served: ApiResource, info: RequestInfo, metrics: ApiServerMetrics | undefined, audit: Annotator | undefined): void {
  const deprecated = served.version.deprecated;
  if (!deprecated) return;
  addWarning(res, deprecated.warning);
  const removed = deprecated.removedRelease ?? '';
  metrics?.requestedDeprecatedApis.set([served.def.group, served.version.name, served.def.plural, info.subresource, removed], 1);
  audit?.annotate(DEPRECATED_ANNOTATION, 'true');
  if (removed) audit?.annotate(REMOVED_RELEASE_ANNOTATION, removed);
}

type Headers = Record<string, string | string[] | number | undefined>;

/**
 * Sends `text` as the first `Warning` of the answer, whatever the handler writes later: warnings the handler
 * passes to writeHead (a kind's, field validation's) follow it, as Kubernetes adds the endpoint's warning first.
 */
export function addWarning(res: Response, text: string): void {
  const ours = warningHeader([text]).warning as string[];
  const w = res as ServerResponse;
  const writeHead = w.writeHead;
  w.writeHead = function (this: ServerResponse, code: number, ...rest: unknown[]): ServerResponse {
    const at = rest.findIndex((x) => x !== null && typeof x === 'object' && !Array.isArray(x));
    if (at >= 0) {
      const headers = rest[at] as Headers;
      const key = Object.keys(headers).find((k) => k.toLowerCase() === 'warning');
      // Warnings the handler passes, or else those it set before (a failed write's).
      const given = key === undefined ? this.getHeader('warning') : headers[key];
      const theirs = given === undefined ? [] : [given].flat().filter((v): v is string => typeof v === 'string');
      const merged: Headers = { ...headers };
      if (key !== undefined) delete merged[key];
      merged.warning = [...ours, ...theirs];
      rest[at] = merged;
    } else {
      const prior = this.getHeader('warning');
      this.setHeader('warning', [...ours, ...(prior === undefined ? [] : [prior].flat().map(String))]);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, code, ...rest);
  } as typeof w.writeHead;
}
