// The watch stream over HTTP: one `{type, object}` JSON document per event (chunked on HTTP/1.1), bookmarks
// on request, an ERROR event for failures after the stream started, Table and metadata-only event objects,
// and a timeout as Kubernetes picks it. A watcher whose client stops reading is cut off. Streams that write the
// cache's JSON as is share a channel per selection (watch-channel.ts): an event is encoded and queued once for
// all of them, and each writes the same buffer.
import type { ServerResponse } from 'node:http';
import { constants as http2constants, type ServerHttp2Stream } from 'node:http2';
import * as status from '../../machinery/status.ts';
import { apiVersionOf } from '../../apis/kind.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { CachedObject } from '../../storage/cache.ts';
import { prepareWatch, type ActiveWatch, type WatchEventType } from '../../registry/watch.ts';
import type { ServedResource } from '../apis.ts';
import { parseAccept, type Representation } from '../negotiate.ts';
import type { QueryParams } from '../params.ts';
import type { Request, Response } from '../respond.ts';
import { encodeFor, type ResourceHandlerDeps } from './resources.ts';
import { toTable, partialMetadata } from './table.ts';
import { watchFramer } from '../codecs/watch-frames.ts';
import { FrameQueue, flushSoon, cancelFlush, atTurnEnd } from './watch-flush.ts';
import { FrameChannel, takeChannelFlush, takeOwedFrames, type ChannelMember } from './watch-channel.ts';

const BOOKMARK_INTERVAL_MS = 60_000;
/** Bookmarks go out this long before the deadline, so a client can resume from where the stream ended. */
const FINAL_BOOKMARK_LEAD_MS = 2000;
/** A watcher whose connection holds more unsent data than this (beyond what its initial events left) for
 *  STALL_GRACE_MS, or more than HARD_BUFFERED_BYTES at any time, is cut off; its client re-watches. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const HARD_BUFFERED_BYTES = 4 * MAX_BUFFERED_BYTES;
const STALL_GRACE_MS = 2000;
/** Kubernetes' --min-request-timeout: a watch without timeoutSeconds lasts between one and two of these. */
const MIN_REQUEST_TIMEOUT_S = 1800;
/** Media types a watch can be streamed in. */
const STREAM_MEDIA_TYPES = ['application/json'];

export async function serveWatch(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, negotiated: Representation): Promise<void> {
  const rep = streamRepresentation(req.headers.accept, negotiated);
  const framer = watchFramer(rep);
  const prepared = prepareWatch(served.store, deps.storage, namespace, params, name);
  const alias = served.alias;
  // Bookmarks name the group as the client did (Kubernetes' name of a renamed group, or the served one).
  const apiVersion = apiVersionOf(alias?.client ?? served.def.group, served.version.name);
  const out = res as ServerResponse;
  let headerWritten = false;
  let ended = false;
  /** The client is gone: nothing more can be written. */
  let closed = false;
  let sentColumns = false;
  let bufferBaseline = 0;
  let live = false;
  let active: ActiveWatch | undefined;
  let timeout: NodeJS.Timeout | undefined;
  let bookmarkTimer: NodeJS.Timeout | undefined;
  let stallTimer: NodeJS.Timeout | undefined;
  // Frames wait here until the end of the turn, so that a client gets one write per turn, not per event.
  const queued = new FrameQueue();

  const writeHeader = () => {
    headerWritten = true;
    out.writeHead(200, { 'content-type': framer.contentType, 'cache-control': 'no-cache, private' });
    (res as { flushHeaders?: () => void }).flushHeaders?.();
  };
  const finish = () => {
    if (ended) return;
    flush();
    ended = true;
    active?.stop();
    clearTimeout(timeout);
    clearTimeout(bookmarkTimer);
    clearTimeout(stallTimer);
    deps.watchRegistry.delete(finish);
    cancelFlush(flush);
    if (!headerWritten) writeHeader();
    res.end();
  };
  /** Drops a client that does not keep up: its connection (HTTP/1.1) or stream (HTTP/2) is closed. */
  const cutOff = () => {
    if (ended) return;
    ended = true;
    active?.stop();
    clearTimeout(timeout);
    clearTimeout(bookmarkTimer);
    clearTimeout(stallTimer);
    deps.watchRegistry.delete(finish);
    cancelFlush(flush);
    queued.clear();
    // HTTP/2: reset this stream alone (a destroy would queue behind the unsent data); HTTP/1.1: drop the connection.
    const stream = (res as { stream?: ServerHttp2Stream }).stream;
    if (stream) stream.close(http2constants.NGHTTP2_CANCEL);
    else res.destroy();
  };
  // A client slower than a burst of writes gets a grace period to catch up; one that stays behind is dropped.
  const backlog = () => res.writableLength - bufferBaseline;
  const checkBacklog = () => {
    if (backlog() > HARD_BUFFERED_BYTES) cutOff();
    else if (backlog() > MAX_BUFFERED_BYTES && !stallTimer) {
      stallTimer = setTimeout(() => {
        stallTimer = undefined;
        if (backlog() > MAX_BUFFERED_BYTES) cutOff();
      }, STALL_GRACE_MS);
    }
  };
  const writeBytes = (bytes: Uint8Array) => {
    if (ended || closed) return;
    if (!headerWritten) writeHeader();
    out.write(bytes);
    if (live) checkBacklog();
  };
  /** What the shared channel queued for this stream before now goes first (a frame of its own comes after it). */
  const takeOwed = () => takeOwedFrames(sink, queued);
  function flush(): void {
    takeOwed();
    const bytes = queued.take();
    if (bytes) writeBytes(bytes);
  }
  const write = (frame: string | Uint8Array) => {
    if (ended) return;
    takeOwed();
    queued.push(frame);
    if (queued.length === 1) flushSoon(flush);
  };

  // The object an event carries, as the client asked for it: the served version, a one-row Table
  // (column definitions on the first event only), or the metadata alone.
  const eventObject = (obj: ApiObject): unknown => {
    if (rep.as === 'Table') {
      const table = toTable(served, [obj], params.includeObject, rep, { resourceVersion: obj.metadata?.resourceVersion ?? '' }, !sentColumns);
      sentColumns = true;
      return table;
    }
    if (rep.as === 'PartialObjectMetadata') return partialMetadata(obj, rep);
    return obj;
  };
  const frame = (type: string, object: unknown) => framer.frame(type, object);
  // Fast path: the stored version as the cache encoded it, written as is.
  const asCached = framer.json && !served.version.fromStorage && !alias && rep.as !== 'Table' && rep.as !== 'PartialObjectMetadata';
  const eventFrame = (type: WatchEventType, obj: CachedObject): string | Uint8Array => {
    if (asCached) return sharedJsonFrame(type, obj);
    return frame(type, eventObject(encodeFor(served, obj).object));
  };
  const bookmarkFrame = (rv: number, initialEventsEnd: boolean): string | Uint8Array => {
    const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
    if (initialEventsEnd) metadata.annotations = { 'svc.io/initial-events-end': 'true' };
    return frame('BOOKMARK', eventObject({ kind: served.def.kind, apiVersion, metadata } as ApiObject));
  };
  const sink: ChannelMember = {
    event: (type, obj) => write(eventFrame(type, obj)),
    bookmark: (rv, initialEventsEnd) => write(bookmarkFrame(rv, initialEventsEnd)),
    error: (err) => {
      write(frame('ERROR', (alias ? alias.error(err) : err).toStatus()));
      finish();
    },
    end: () => finish(),
    // Streams that write the cache's JSON as is get their live events through one channel per selection.
    share: asCached ? JSON_CHANNEL : undefined,
    channelCursor: 0,
    takeChannel(frames, joined) {
      takeChannelFlush(this, queued, frames, joined, writeBytes);
    },
  };

  // A client gone while the watch starts (a consistent read may wait) ends it as soon as it has started.
  res.on('close', () => {
    closed = true;
    finish();
  });
  try {
    active = await prepared.start(sink);
  } catch (err) {
    // Nothing was streamed: the failure is an ordinary error response.
    ended = true;
    throw err;
  }
  if (ended) { active.stop(); return; }
  // The initial events go out now, and what they leave unsent is the baseline of the backlog check.
  flush();
  cancelFlush(flush);
  if (!headerWritten) writeHeader();
  live = true;
  bufferBaseline = res.writableLength;
  deps.watchRegistry.add(finish);

  const timeoutMs = (params.timeoutSeconds && params.timeoutSeconds > 0 ? params.timeoutSeconds : MIN_REQUEST_TIMEOUT_S * (1 + Math.random())) * 1000;
  const deadline = Date.now() + timeoutMs;
  timeout = setTimeout(finish, timeoutMs);
  if (params.allowWatchBookmarks) {
    // Every minute, and once shortly before the deadline: all changes up to the bookmark were sent.
    const schedule = () => {
      const untilFinal = deadline - Date.now() - FINAL_BOOKMARK_LEAD_MS;
      if (untilFinal < 0) return;
      bookmarkTimer = setTimeout(() => {
        if (ended || !active) return;
        write(bookmarkFrame(active.revision(), false));
        if (untilFinal > BOOKMARK_INTERVAL_MS) schedule();
      }, Math.min(BOOKMARK_INTERVAL_MS, untilFinal));
    };
    schedule();
  }
}

/** The encoded frames of this turn's events, shared by every watcher an event goes to: one encoding per event
 *  instead of one per watcher. Forgotten at the end of the turn (with the flush), so no frame outlives its
 *  fan-out. */
const turnFrames = new Map<CachedObject, { type: WatchEventType; frame: Buffer }>();

function sharedJsonFrame(type: WatchEventType, obj: CachedObject): Buffer {
  const hit = turnFrames.get(obj);
  if (hit && hit.type === type) return hit.frame;
  const frame = Buffer.from(`{"type":"${type}","object":${obj.json}}\n`);
  if (turnFrames.size === 0) atTurnEnd(() => turnFrames.clear());
  turnFrames.set(obj, { type, frame });
  return frame;
}

/** The channel of JSON streams that write the cached encoding: every event's frame is the same for all of them. */
const JSON_CHANNEL = { key: 'cached-json', open: () => new FrameChannel(sharedJsonFrame) };

/** Watches stream JSON, protobuf or CBOR, never YAML (no YAML stream framing, as in Kubernetes): another acceptable type, or 406. */
function streamRepresentation(accept: string | undefined, rep: Representation): Representation {
  if (rep.mediaType !== 'application/yaml') return rep;
  for (const m of parseAccept(accept)) {
    const full = `${m.type}/${m.subtype}`;
    if ((full === 'application/json' || full === 'application/*' || full === '*/*') && !m.params.as) return { mediaType: 'application/json', as: '', group: '', version: '' };
  }
  throw status.notAcceptable(STREAM_MEDIA_TYPES);
}
