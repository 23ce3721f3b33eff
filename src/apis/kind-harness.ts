// Drives one kind through the real generic registry over an in-memory store, for kind tests: what a
// create or update answers (the stored object) or the field errors of its 422, without an HTTP server.
import type { KindDefinition, RequestContext, UserInfo } from './kind.ts';
import type { ApiObject } from './meta/v1.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { StatusError } from '../machinery/status.ts';

export interface WriteOpts {
  namespace?: string;
  user?: UserInfo;
  /** `status` or another sub-resource that writes the whole object. */
  subresource?: string;
}

export interface KindHarness {
  store: ResourceStore;
  create(obj: ApiObject, opts?: WriteOpts): Promise<ApiObject>;
  /** Writes `obj` over the stored object of the same name (no resourceVersion needed). */
  update(obj: ApiObject, opts?: WriteOpts): Promise<ApiObject>;
  get(name: string, namespace?: string): ApiObject | undefined;
  /** Overwrites the stored object as is, without validation (data stored before a rule existed). */
  seed(obj: ApiObject): Promise<void>;
  close(): Promise<void>;
}

export const ADMIN: UserInfo = { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'] };

export function requestContext(subresource = '', user: UserInfo = ADMIN, version = 'v1'): RequestContext {
  return { user, version, subresource, dryRun: false, warnings: [] };
}

export async function kindHarness(def: KindDefinition): Promise<KindHarness> {
  const storage = SqliteStorage.open(':memory:');
  const store = new ResourceStore(def, storage);
  await store.cache.start();
  const settle = async () => { await store.cache.waitFor(await storage.currentRevision(), 1000); };
  return {
    store,
    async create(obj, opts = {}) {
      const r = await store.create(opts.namespace ?? obj.metadata?.namespace ?? '', structuredClone(obj), { ctx: requestContext('', opts.user), dryRun: false });
      await settle();
      return r.object;
    },
    async update(obj, opts = {}) {
      const namespace = opts.namespace ?? obj.metadata?.namespace ?? '';
      const sub = opts.subresource ?? '';
      const next = structuredClone(obj);
      delete next.metadata?.resourceVersion;
      const r = await store.update(namespace, () => structuredClone(next), {
        ctx: requestContext(sub, opts.user), dryRun: false, subresource: sub, allowCreate: !!def.allowCreateOnUpdate && !sub, name: obj.metadata.name!,
      });
      await settle();
      return r.object;
    },
    get(name, namespace = '') {
      return store.current(namespace, name)?.object as ApiObject | undefined;
    },
    async seed(obj) {
      const namespace = obj.metadata.namespace ?? '';
      const key = store.key(namespace, obj.metadata.name!);
      const { resourceVersion: _rv, ...metadata } = obj.metadata;
      const value = JSON.stringify({ ...obj, metadata });
      const current = store.current(namespace, obj.metadata.name!);
      if (current) await storage.update(key, value, current.modRevision);
      else await storage.create(key, value);
      await settle();
    },
    async close() {
      store.cache.stop();
      await storage.close();
    },
  };
}

/** The field error texts of a rejected write (`spec.x: Invalid value: ...`); fails when it succeeds. */
export async function rejection(write: Promise<unknown>): Promise<{ code: number; message: string; causes: string[] }> {
  try {
    await write;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    const causes = (err.details?.causes ?? []).map((c) => (c.field ? `${c.field}: ${c.message}` : c.message ?? ''));
    return { code: err.code, message: err.message, causes };
  }
  throw new Error('the write was accepted');
}
