// The embedded store's key index, kept in memory as etcd keeps its own: for every key with rows in the
// log, the revisions of those rows, oldest first, a tombstone's negated. The log on disk is then ordered by
// revision alone, so a write appends to it and dirties no index pages scattered over the file (each such
// page is one more WAL frame to write at every commit, and to copy at every checkpoint); the index is
// rebuilt from the log when the store opens.
import { SortedKeys } from './sorted-keys.ts';

export class KeyIndex {
  /** Key -> revisions of its rows in the log, ascending, a tombstone's negated: most keys have one row,
   *  kept as a bare number (an array is two more objects for the collector to trace, per key). */
  private readonly rows = new Map<string, Revisions>();
  private readonly keys = new SortedKeys();

  /** Revision of the key's newest row (negative for a tombstone), 0 when the log holds none. */
  newest(key: string): number {
    const revs = this.rows.get(key);
    return revs === undefined ? 0 : typeof revs === 'number' ? revs : revs[revs.length - 1];
  }

  /** Revision of the key's row a read at `revision` sees, 0 when the key was absent (or deleted) then. */
  at(key: string, revision: number): number {
    const revs = this.rows.get(key);
    return revs === undefined ? 0 : liveAt(revs, revision);
  }

  /** Records a row written at `revision` (after every row of the key the index holds). */
  append(key: string, revision: number, tombstone: boolean): void {
    const revs = this.rows.get(key);
    const entry = tombstone ? -revision : revision;
    if (revs === undefined) {
      this.rows.set(key, entry);
      this.keys.insert(key);
    } else if (typeof revs === 'number') this.rows.set(key, [revs, entry]);
    else revs.push(entry);
  }

  /** Takes back the key's newest row (a transaction that appended it was rolled back). */
  dropNewest(key: string): void {
    const revs = this.rows.get(key);
    if (revs === undefined) return;
    if (typeof revs === 'number') this.forgetKey(key);
    else this.keep(key, revs.slice(0, -1));
  }

  /** Forgets the row of the key written at `revision` (compaction removed it). */
  remove(key: string, revision: number): void {
    const revs = this.rows.get(key);
    if (revs === undefined) return;
    if (typeof revs === 'number') {
      if (Math.abs(revs) === revision) this.forgetKey(key);
      return;
    }
    if (revs.some((r) => Math.abs(r) === revision)) this.keep(key, revs.filter((r) => Math.abs(r) !== revision));
  }

  /** The keys in [start, end) that were live at `revision`, in key order, with the revision of the row
   *  a read then sees. Lazy; the index must not change while it is iterated. */
  *liveIn(start: string, end: string, revision: number): Generator<[key: string, revision: number]> {
    for (const key of this.keys.from(this.keys.lowerBound(start))) {
      if (key >= end) return;
      const rev = liveAt(this.rows.get(key)!, revision);
      if (rev > 0) yield [key, rev];
    }
  }

  /** The key's rows once some went (at least one is left): a single one as a bare number. */
  private keep(key: string, revs: number[]): void {
    this.rows.set(key, revs.length === 1 ? revs[0] : revs);
  }

  private forgetKey(key: string): void {
    this.rows.delete(key);
    this.keys.remove(key);
  }
}

/** One row's revision, or several, ascending (a tombstone's negated). */
type Revisions = number | number[];

/** The newest entry at or below `revision`, if it is a live row; 0 otherwise. */
function liveAt(revs: Revisions, revision: number): number {
  if (typeof revs === 'number') return revs > 0 && revs <= revision ? revs : 0;
  for (let i = revs.length - 1; i >= 0; i--) {
    const r = revs[i];
    if (Math.abs(r) <= revision) return r > 0 ? r : 0;
  }
  return 0;
}
