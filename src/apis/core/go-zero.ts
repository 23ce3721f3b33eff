// Go writes a struct's non-pointer fields even when empty: `"maxReplicas": 0`, `"type": ""`. In Kubernetes'
// OpenAPI those are the `required` fields. For a schema whose required fields are all such non-pointer
// fields, this fills the missing ones with Go's zero value, so that validation sees what Go would (a zero,
// not an absence) and answers with Kubernetes' own messages.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, scopeOf, type RefScope } from '../../machinery/schema/schema-kind.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function zeroOf(schema: TSchema): unknown {
  switch (kindOf(schema)) {
    case 'string': return '';
    case 'integer': case 'number': case 'intOrString': return 0;
    case 'boolean': return false;
    case 'quantity': return '0';
    case 'object': return {};
    default: return undefined;
  }
}

function fill(value: unknown, schema: TSchema, scope: RefScope): void {
  const resolved = deref(schema, scope);
  const inner = scopeOf(resolved, scope);
  switch (kindOf(resolved)) {
    case 'object': {
      if (!isObj(value)) return;
      const s = asSchema(resolved);
      const props = s.properties ?? {};
      for (const name of s.required ?? []) {
        const prop = props[name];
        if (!prop || (value[name] !== undefined && value[name] !== null)) continue;
        const zero = zeroOf(deref(prop, inner));
        if (zero !== undefined) value[name] = zero;
      }
      for (const [name, prop] of Object.entries(props)) fill(value[name], prop, inner);
      return;
    }
    case 'array': {
      const items = itemSchema(resolved);
      if (Array.isArray(value) && items) for (const v of value) fill(v, items, inner);
      return;
    }
    case 'map': {
      const values = mapValueSchema(resolved);
      if (isObj(value) && values) for (const v of Object.values(value)) fill(v, values, inner);
      return;
    }
  }
}

/** Fills, in place, every missing required scalar or struct field below `value` with its Go zero value. */
export function fillGoZeroValues(value: unknown, schema: TSchema): void {
  fill(value, schema, EMPTY_SCOPE);
}
