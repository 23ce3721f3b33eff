// The shape every compiled schema walk shares (defaults, structural validation, Go's encoding): a plan per
// schema, cached by the schema it resolves to, holding what the walk does at that schema and the plans of
// the properties, list items or map values under it that do anything. The walks themselves stay apart: each
// is on the write path and does its own work at each node.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, itemSchema, kindOf, mapValueSchema, type RefScope, scopeOf } from './schema-kind.ts';

export interface PlanNode<P> {
  kind: 'object' | 'array' | 'map' | 'none';
  /** Properties whose value the walk has something to do in. */
  children: { key: string; plan: P }[];
  /** Plan for list items or map values. */
  item: P | null;
  /** True when this plan (and everything under it) does nothing. */
  empty: boolean;
}

export interface PlanRecipe<P extends PlanNode<P>> {
  /** A new plan for `resolved`, with its walk's own parts filled in where they need no property. */
  blank(resolved: TSchema): P;
  /** Adds what the walk does for property `key` of an object schema (`prop` resolved). */
  property?(plan: P, key: string, prop: TSchema, resolved: TSchema): void;
  /** Whether the walk's own parts of the plan do nothing. */
  doesNothing(plan: P): boolean;
}

/**
 * A compiler of plans after `recipe`. A plan is cached before its children are compiled, so recursive
 * schemas terminate (such a plan is kept, not empty).
 */
export function planCompiler<P extends PlanNode<P>>(recipe: PlanRecipe<P>): (schema: TSchema, scope: RefScope) => P {
  const cache = new WeakMap<TSchema, P>();
  const compile = (schema: TSchema, scope: RefScope): P => {
    const resolved = deref(schema, scope);
    const cached = cache.get(resolved);
    if (cached) return cached;
    const plan = recipe.blank(resolved);
    cache.set(resolved, plan);
    const inner = scopeOf(resolved, scope);
    const kind = kindOf(resolved);
    if (kind === 'object') {
      plan.kind = 'object';
      for (const [key, prop] of Object.entries(asSchema(resolved).properties ?? {})) {
        const p = deref(prop, inner);
        recipe.property?.(plan, key, p, resolved);
        const child = compile(p, inner);
        if (!child.empty) plan.children.push({ key, plan: child });
      }
    } else if (kind === 'array' || kind === 'map') {
      plan.kind = kind;
      const items = kind === 'array' ? itemSchema(resolved) : mapValueSchema(resolved);
      const child = items ? compile(items, inner) : null;
      if (child && !child.empty) plan.item = child;
    }
    plan.empty = recipe.doesNothing(plan) && plan.children.length === 0 && plan.item === null;
    return plan;
  };
  return compile;
}
