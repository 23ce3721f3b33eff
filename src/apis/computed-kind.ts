// Kinds whose objects are computed when they are read and never stored (ComponentStatus, from health
// checks; CustomResourceDefinition, of which Capstan has none): they serve get and list only, and have no
// watch, no storage key, no watch cache and no storage version hash. Each declares in its own file how it
// binds to a running server (`computed.source`); the server calls that once per kind and answers the
// kind's requests from the source. The generic registry never sees them.
import type { KindDefinition } from './kind.ts';
import type { ApiObject } from './meta/v1.ts';

export type ComputedVerb = 'get' | 'list';

/** What one health check found: healthy with a message (`ok`), or not, with the error. */
export interface ComponentHealth {
  healthy: boolean;
  message?: string;
  error?: string;
}

/** A part of the control plane and how to check it. */
export interface ComponentCheck {
  name: string;
  check(): Promise<ComponentHealth>;
}

/** What a running server offers its computed kinds to compute their objects from. */
export interface ServerState {
  /** The health checks of the control plane's parts (the store's members, the controller manager). */
  components: readonly ComponentCheck[];
}

/** Where a computed kind's objects come from. */
export interface ComputedSource {
  /** Every object, in name order. */
  list(): Promise<ApiObject[]>;
  /** One object, or undefined when there is none of that name. */
  get(name: string): Promise<ApiObject | undefined>;
}

export interface ComputedKindDefinition extends KindDefinition {
  computed: {
    verbs: readonly ComputedVerb[];
    /** The kind's objects on a running server; called once per server, shared by the kind's versions. */
    source(server: ServerState): ComputedSource;
  };
}

export function isComputed(def: KindDefinition): def is ComputedKindDefinition {
  return (def as Partial<ComputedKindDefinition>).computed !== undefined;
}

/** The verbs a computed kind serves; undefined for a stored kind. */
export function computedVerbs(def: KindDefinition): readonly ComputedVerb[] | undefined {
  return (def as Partial<ComputedKindDefinition>).computed?.verbs;
}
