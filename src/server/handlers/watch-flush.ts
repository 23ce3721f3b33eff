// Watch frames bound for one client, written together once per turn of the event loop. A stream write costs
// about the same for one event as for ten (per-write work in the stream, HTTP/2 framing and TLS dominates),
// so a watcher that receives several events in one turn gets them in one write. A turn's events are
// complete once its I/O callbacks have run, which is when setImmediate callbacks run: the delay is at
// most one turn, and under load turns grow and batches with them.

/** Frames queued for one watcher, in order. */
export class FrameQueue {
  private frames: Uint8Array[] = [];
  private bytes = 0;

  get length(): number {
    return this.frames.length;
  }

  push(frame: string | Uint8Array): void {
    const bytes = typeof frame === 'string' ? Buffer.from(frame) : frame;
    this.frames.push(bytes);
    this.bytes += bytes.length;
  }

  /** Everything queued as one buffer (the frame itself when there is one), and an empty queue. */
  take(): Uint8Array | undefined {
    const { frames, bytes } = this;
    if (frames.length === 0) return undefined;
    this.frames = [];
    this.bytes = 0;
    return frames.length === 1 ? frames[0] : joined(frames, bytes);
  }

  clear(): void {
    this.frames = [];
    this.bytes = 0;
  }
}

/** The last joined sequence of the flush pass: watchers that see the same events in a turn queue the same
 *  frames (frames are shared between watchers), so they share one joined buffer too, as they share each
 *  frame. Forgotten when the pass ends, so that no buffer outlives its turn. */
let lastFrames: Uint8Array[] = [];
let lastJoined: Uint8Array | undefined;
let inFlushPass = false;

function joined(frames: Uint8Array[], bytes: number): Uint8Array {
  if (!inFlushPass) return Buffer.concat(frames, bytes);
  if (lastJoined && sameFrames(frames, lastFrames)) return lastJoined;
  lastFrames = frames;
  lastJoined = Buffer.concat(frames, bytes);
  return lastJoined;
}

function sameFrames(a: Uint8Array[], b: Uint8Array[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const due = new Set<() => void>();
let scheduled = false;

/** Runs `flush` once after this turn's I/O callbacks (once however often it is asked for in the turn). */
export function flushSoon(flush: () => void): void {
  due.add(flush);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushDue);
}

/** Runs `fn` once after this turn's flushes (to forget what only this turn's watchers share). */
export function atTurnEnd(fn: () => void): void {
  turnEnd.push(fn);
  if (scheduled) return;
  scheduled = true;
  setImmediate(flushDue);
}

const turnEnd: (() => void)[] = [];

/** Drops a pending flush (the watch ended and wrote what it had). */
export function cancelFlush(flush: () => void): void {
  due.delete(flush);
}

function flushDue(): void {
  scheduled = false;
  const flushes = [...due];
  due.clear();
  inFlushPass = true;
  for (const flush of flushes) {
    try {
      flush();
    } catch {
      // One client's failed write must not hold back the others; its stream reports the error itself.
    }
  }
  inFlushPass = false;
  lastFrames = [];
  lastJoined = undefined;
  for (const fn of turnEnd.splice(0)) fn();
}
