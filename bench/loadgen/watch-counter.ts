// Counts watch events in a stream of JSON lines and measures each one's delivery latency from the
// writer's "bench/stamp" annotation, with byte searches only (a watcher process handles hundreds of
// thousands of events per second, so no JSON parsing). Only events stamped at or after the last mark
// count for the current run; late events of an earlier run are kept apart.
import { MsHistogram } from '../lib/stats.ts';

const NEEDLE = Buffer.from('"bench/stamp":"');
const NEWLINE = 10;
const QUOTE = 34;

export class WatchCounter {
  /** Events of the current run. */
  events = 0;
  /** Events without a stamp, or stamped before the mark. */
  otherEvents = 0;
  latency = new MsHistogram();
  private markAt = Number.MAX_SAFE_INTEGER;

  mark(at = Date.now()): number {
    this.events = 0;
    this.otherEvents = 0;
    this.latency = new MsHistogram();
    this.markAt = at;
    return at;
  }

  private line(buf: Buffer, start: number, end: number, now: number): void {
    const s = buf.indexOf(NEEDLE, start);
    if (s < 0 || s >= end) { this.otherEvents++; return; }
    let i = s + NEEDLE.length;
    let stamp = 0;
    while (i < end && buf[i] !== QUOTE) stamp = stamp * 10 + (buf[i++] - 48);
    if (stamp < this.markAt) { this.otherEvents++; return; }
    this.events++;
    this.latency.record(now - stamp);
  }

  /** A reader for one stream: splits its bytes into lines; a line cut between chunks waits for its end. */
  reader(clock: () => number = Date.now): (chunk: Buffer) => void {
    let tail: Buffer | null = null;
    return (chunk) => {
      const now = clock();
      const buf = tail ? Buffer.concat([tail, chunk]) : chunk;
      let start = 0;
      let nl: number;
      while ((nl = buf.indexOf(NEWLINE, start)) !== -1) {
        this.line(buf, start, nl, now);
        start = nl + 1;
      }
      tail = start < buf.length ? Buffer.from(buf.subarray(start)) : null;
    };
  }
}
