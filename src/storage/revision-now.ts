// A backend in this process that knows its current revision without asking anyone (the embedded store)
// says so through `revisionNow()`: a watch cache that has reached that revision holds exactly what a read
// of storage would answer, so reads "as of now" can be served from it. Remote backends (etcd) cannot know
// without a round trip, and have no such method.
import type { Storage } from './interface.ts';

export interface KnowsRevisionNow {
  /** The revision every read of storage would see now. */
  revisionNow(): number;
}

/** The backend's current revision when it can tell it at once; undefined when only a request can tell. */
export function revisionNow(storage: Storage): number | undefined {
  const s = storage as Storage & Partial<KnowsRevisionNow>;
  return typeof s.revisionNow === 'function' ? s.revisionNow() : undefined;
}
