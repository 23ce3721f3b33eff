// The HTTP floor's watch: a GET with watch=1 (or watch=true) on a collection path holds its response open,
// and every PATCH of an object in that collection is sent to each such watch as one watch event line, the
// patched ConfigMap as an API server would send it (~1.6 KB, the writer's stamp annotation included). The
// floor stores nothing: the object is a fixed ConfigMap with the patch's annotations and a counter as its
// resourceVersion, encoded once per write and the same bytes written to every watch, one write each.
import { storedConfigMap } from './lib/configmap.ts';

/** What the floor writes to: an HTTP/1.1 or HTTP/2 (compatibility API) response. */
export interface WatchResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array): unknown;
  once(event: 'close', listener: () => void): unknown;
  /** HTTP/1.1 sends the head with the first write unless told to now. */
  flushHeaders?(): void;
}

const WATCH_QUERY = /[?&]watch=(1|true)(&|$)/;

/** True for a request that asks to watch (`?watch=1` or `?watch=true`). */
export function isWatchRequest(url: string): boolean {
  return WATCH_QUERY.test(url);
}

/** The collection a request path addresses: the path without its query (a watch) or without its last segment (an object). */
export function collectionOf(path: string, isObject: boolean): string {
  const q = path.indexOf('?');
  const bare = q < 0 ? path : path.slice(0, q);
  return isObject ? bare.slice(0, bare.lastIndexOf('/')) : bare;
}

/** The managed fields an API server records for the writer's patch, so the event is as long as a real one. */
function managedFields(annotations: Record<string, unknown>): unknown[] {
  const dataFields = Object.fromEntries(['.', ...Array.from({ length: 8 }, (_, k) => `f:key${k}`)].map((f) => [f, {}]));
  const annotationFields = Object.fromEntries(['.', ...Object.keys(annotations).map((a) => `f:${a}`)].map((f) => [f, {}]));
  return [{
    manager: 'unknown', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': dataFields, 'f:metadata': { 'f:annotations': annotationFields, 'f:labels': { '.': {}, 'f:app': {} } } },
  }];
}

/** The watch event line for a patch of `name` in `namespace`: the fixed ConfigMap with the patch's annotations. */
export function watchEventLine(namespace: string, name: string, resourceVersion: number, patch: unknown): Buffer {
  const object = storedConfigMap(namespace, name, String(resourceVersion)) as { metadata: Record<string, unknown> };
  const patched = (patch as { metadata?: { annotations?: unknown } } | null)?.metadata?.annotations;
  const annotations = patched && typeof patched === 'object' ? patched as Record<string, unknown> : {};
  object.metadata.annotations = annotations;
  object.metadata.managedFields = managedFields(annotations);
  return Buffer.from(`${JSON.stringify({ type: 'MODIFIED', object })}\n`);
}

export class FloorWatches {
  private readonly byCollection = new Map<string, Set<WatchResponse>>();
  private revision = 1;

  /** Starts a watch on `collection`: headers now, events as writes come, until the client goes. */
  open(collection: string, res: WatchResponse): void {
    let watches = this.byCollection.get(collection);
    if (!watches) this.byCollection.set(collection, watches = new Set());
    watches.add(res);
    res.once('close', () => {
      watches.delete(res);
      if (watches.size === 0 && this.byCollection.get(collection) === watches) this.byCollection.delete(collection);
    });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache, private' });
    res.flushHeaders?.();
  }

  /** Number of open watches on `collection`. */
  count(collection: string): number {
    return this.byCollection.get(collection)?.size ?? 0;
  }

  /** Sends the event of a patch of the object at `objectPath` to every watch of its collection; returns how many got it. */
  publish(objectPath: string, patch: unknown): number {
    const collection = collectionOf(objectPath, true);
    const watches = this.byCollection.get(collection);
    if (!watches || watches.size === 0) return 0;
    const segments = collection.split('/');
    const nsAt = segments.indexOf('namespaces');
    const namespace = nsAt >= 0 ? segments[nsAt + 1] ?? '' : '';
    const name = objectPath.slice(collection.length + 1).split('?')[0];
    const line = watchEventLine(namespace, name, ++this.revision, patch);
    for (const res of watches) res.write(line);
    return watches.size;
  }
}
