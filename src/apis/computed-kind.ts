// Kinds whose objects are computed when they are read and never stored (ComponentStatus, from health
// checks): they serve get and list only, have no watch, no storage key and no storage version hash. The
// server answers them from a source it binds at start (ComputedSource); the generic registry never sees them.
import type { KindDefinition } from './kind.ts';
import type { ApiObject } from './meta/v1.ts';

export type ComputedVerb = 'get' | 'list';

export interface ComputedKindDefinition extends KindDefinition {
  computed: { verbs: readonly ComputedVerb[] };
}

/** Where a computed kind's objects come from: the server binds one per computed kind. */
export interface ComputedSource {
  /** Every object, in name order. */
  list(): Promise<ApiObject[]>;
  /** One object, or undefined when there is none of that name. */
  get(name: string): Promise<ApiObject | undefined>;
}

export function isComputed(def: KindDefinition): def is ComputedKindDefinition {
  return (def as Partial<ComputedKindDefinition>).computed !== undefined;
}

/** The verbs a computed kind serves; undefined for a stored kind. */
export function computedVerbs(def: KindDefinition): readonly ComputedVerb[] | undefined {
  return (def as Partial<ComputedKindDefinition>).computed?.verbs;
}
