// The watch stream over HTTP: one `{type, object}` JSON document per event, bookmarks on request, an ERROR
// event for failures after the stream started, and a timeout as Kubernetes picks it.
import * as status from '../../machinery/status.ts';
import { apiVersionOf } from '../../apis/kind.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { CachedObject } from '../../storage/cache.ts';
import { startWatch, type ActiveWatch, type WatchEventType } from '../../registry/watch.ts';
import type { ServedResource } from '../apis.ts';
import type { Representation } from '../negotiate.ts';
import type { QueryParams } from '../params.ts';
import type { Request, Response } from '../respond.ts';
import type { ResourceHandlerDeps } from './resources.ts';
import { toTable } from './table.ts';
import YAML from 'yaml';

const BOOKMARK_INTERVAL_MS = 60_000;
/** A watcher whose connection holds more than this much unsent data is closed; its client re-lists. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const MIN_REQUEST_TIMEOUT_S = 1800;

export async function serveWatch(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, rep: Representation): Promise<void> {
  const fieldSelector = name
    ? (params.fieldSelector ? `${params.fieldSelector},metadata.name=${name}` : `metadata.name=${name}`)
    : params.fieldSelector;
  const apiVersion = apiVersionOf(served.def.group, served.version.name);
  let headerWritten = false;
  let ended = false;
  let sentColumns = false;
  let active: ActiveWatch | undefined;
  const timers: NodeJS.Timeout[] = [];

  const objectFor = (obj: ApiObject): unknown => {
    if (rep.as !== 'Table') return obj;
    const table = toTable(served, [obj], params.includeObject, rep, { resourceVersion: obj.metadata?.resourceVersion ?? '' }, !sentColumns);
    sentColumns = true;
    return table;
  };
  const write = (text: string) => {
    if (ended) return;
    if (!headerWritten) writeHeader();
    (res as import('node:http').ServerResponse).write(text);
    if (res.writableLength > MAX_BUFFERED_BYTES) finish();
  };
  const encode = (type: string, obj: unknown, json?: string): string => {
    if (rep.mediaType === 'application/yaml') return '---\n' + YAML.stringify({ type, object: obj });
    return json !== undefined ? `{"type":"${type}","object":${json}}\n` : JSON.stringify({ type, object: obj }) + '\n';
  };
  const writeHeader = () => {
    headerWritten = true;
    (res as import('node:http').ServerResponse).writeHead(200, {
      'content-type': rep.mediaType === 'application/yaml' ? 'application/yaml' : 'application/json',
      'cache-control': 'no-cache, private',
    });
    (res as { flushHeaders?: () => void }).flushHeaders?.();
  };
  const finish = () => {
    if (ended) return;
    ended = true;
    active?.stop();
    for (const t of timers) clearTimeout(t);
    deps.watchRegistry.delete(finish);
    if (!headerWritten) writeHeader();
    res.end();
  };

  const versioned = (obj: CachedObject): { object: ApiObject; json?: string } => {
    if (!served.version.fromStorage && rep.as !== 'Table') return { object: obj.object as ApiObject, json: obj.json };
    const o = served.version.fromStorage ? served.version.fromStorage(structuredClone(obj.object) as ApiObject) : obj.object as ApiObject;
    return { object: o };
  };

  try {
    active = await startWatch(served.store, deps.storage, namespace, { ...params, fieldSelector }, {
      event(type: WatchEventType, obj: CachedObject) {
        const v = versioned(obj);
        write(rep.as === 'Table' ? encode(type, objectFor(v.object)) : encode(type, v.object, v.json));
      },
      bookmark(rv: number, initialEventsEnd: boolean) {
        const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
        if (initialEventsEnd) metadata.annotations = { 'svc.io/initial-events-end': 'true' };
        write(encode('BOOKMARK', { kind: served.def.kind, apiVersion, metadata }));
      },
      error(err: status.StatusError) {
        write(encode('ERROR', err.toStatus()));
        finish();
      },
      end: finish,
    });
  } catch (err) {
    if (err instanceof status.StatusError && err.code === 410) {
      // A watch from a version that is gone starts and reports it as an ERROR event, as Kubernetes does.
      write(encode('ERROR', err.toStatus()));
      finish();
      return;
    }
    ended = true;
    throw err;
  }
  if (ended) { active.stop(); return; }
  if (!headerWritten) writeHeader();
  deps.watchRegistry.add(finish);
  req.on('close', finish);
  res.on('close', finish);

  const timeoutS = params.timeoutSeconds && params.timeoutSeconds > 0 ? params.timeoutSeconds : MIN_REQUEST_TIMEOUT_S * (1 + Math.random());
  const deadline = Date.now() + timeoutS * 1000;
  timers.push(setTimeout(finish, timeoutS * 1000));
  if (params.allowWatchBookmarks) {
    const sendBookmark = () => {
      if (ended || !active) return;
      write(encode('BOOKMARK', { kind: served.def.kind, apiVersion, metadata: { resourceVersion: String(active.revision()) } }));
    };
    const schedule = () => {
      const untilFinal = deadline - Date.now() - 2000;
      const next = Math.min(BOOKMARK_INTERVAL_MS, untilFinal);
      if (next <= 0) return;
      timers.push(setTimeout(() => { sendBookmark(); schedule(); }, next));
    };
    schedule();
    if (deadline - Date.now() > 2000) timers.push(setTimeout(sendBookmark, deadline - Date.now() - 2000));
  }
}
