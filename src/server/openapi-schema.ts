// Turns our TypeBox schemas into published OpenAPI definitions (v3 components or v2 definitions):
// objects carrying an `x-ref` become named definitions referenced by `$ref`; our extension keys are
// published both as `x-platform-*` and as the `x-kubernetes-*` keys kubectl reads; internal keys and
// TypeBox's symbol keys are dropped, so the result is plain JSON data.
import type { TSchema } from '@sinclair/typebox';

export type Flavor = 'v3' | 'v2';

type Json = Record<string, unknown>;

export interface GvkEntry {
  group: string;
  kind: string;
  version: string;
}

/** Our extension keys and the Kubernetes keys kubectl and client libraries read. */
const MIRRORED: Record<string, string> = {
  'x-platform-list-type': 'x-kubernetes-list-type',
  'x-platform-list-map-keys': 'x-kubernetes-list-map-keys',
  'x-platform-patch-merge-key': 'x-kubernetes-patch-merge-key',
  'x-platform-patch-strategy': 'x-kubernetes-patch-strategy',
  'x-platform-map-type': 'x-kubernetes-map-type',
  'x-platform-int-or-string': 'x-kubernetes-int-or-string',
  'x-platform-preserve-unknown-fields': 'x-kubernetes-preserve-unknown-fields',
};

/** Keys that only mean something inside the server. */
const INTERNAL = new Set(['x-proto', 'x-proto-embedded', 'x-alias-of', 'x-ref', 'x-platform-type', 'x-type-description']);

/** Keys of a field that refers to a named type which belong to the field, not to the type. */
const FIELD_ONLY = ['x-platform-patch-strategy', 'x-platform-patch-merge-key'];

/** JSON Schema keywords carried over unchanged (structure keywords are handled separately). */
const PLAIN_KEYWORDS = [
  'description', 'format', 'default', 'enum', 'minimum', 'maximum', 'multipleOf', 'minLength', 'maxLength', 'pattern',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'readOnly',
];

export const META_PREFIX = 'io.svc.apimachinery.pkg.apis.meta.v1.';

/** Definition name for an `x-ref` value: `meta.v1.ObjectMeta`, `core.v1.PodSpec`, `apps.v1.DeploymentSpec` ... */
export function definitionNameForRef(ref: string): string {
  if (ref.startsWith('io.')) return ref;
  if (ref.startsWith('meta.v1.')) return META_PREFIX + ref.slice('meta.v1.'.length);
  if (ref.startsWith('runtime.')) return 'io.svc.apimachinery.pkg.runtime.' + ref.slice('runtime.'.length);
  if (ref.startsWith('resource.')) return 'io.svc.apimachinery.pkg.api.resource.' + ref.slice('resource.'.length);
  if (ref.startsWith('intstr.')) return 'io.svc.apimachinery.pkg.util.intstr.' + ref.slice('intstr.'.length);
  return 'io.svc.api.' + ref;
}

/** The package segment of a group in definition names: the first DNS label, `core` for the core group. */
export function groupShortName(group: string): string {
  return group === '' ? 'core' : group.split('.')[0]!;
}

/** Definition name of a kind: `io.svc.api.apps.v1.Deployment`. */
export function kindDefinitionName(group: string, version: string, kind: string): string {
  return `io.svc.api.${groupShortName(group)}.${version}.${kind}`;
}

const TIME_DESCRIPTION = 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.';
const MICROTIME_DESCRIPTION = 'MicroTime is version of Time with microsecond level precision.';
const INT_OR_STRING_DESCRIPTION = 'IntOrString is a type that can hold an int32 or a string.  When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type.  This allows you to have, for example, a JSON field that can accept a name or number.';
const QUANTITY_DESCRIPTION = 'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n\t(Note that <suffix> may be empty, from the "" case in <decimalSI>.)\n\n<digit>           ::= 0 | 1 | ... | 9 <digits>          ::= <digit> | <digit><digits> <number>          ::= <digits> | <digits>.<digits> | <digits>. | .<digits> <sign>            ::= "+" | "-" <signedNumber>    ::= <number> | <sign><number> <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI> <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei\n\n\t(International System of units; See: http://physics.nist.gov/cuu/Units/binary.html)\n\n<decimalSI>       ::= m | "" | k | M | G | T | P | E\n\n\t(Note that 1024 = 1Ki but 1000 = 1k; I didn\'t choose the capitalization.)\n\n<decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber> ```\n\nNo matter which of the three exponent forms is used, no quantity may represent a number greater than 2^63-1 in magnitude, nor may it have more than 3 decimal places. Numbers larger or more precise will be capped or rounded up. (E.g.: 0.1m will rounded up to 1m.) This may be extended in the future if we require larger or smaller quantities.\n\nWhen a Quantity is parsed from a string, it will remember the type of suffix it had, and will use the same type again when it is serialized.\n\nBefore serializing, Quantity will be put in "canonical form". This means that Exponent/suffix will be adjusted up or down (with a corresponding increase or decrease in Mantissa) such that:\n\n- No precision is lost - No fractional digits will be emitted - The exponent (or suffix) is as large as possible.\n\nThe sign will be omitted unless the number is negative.\n\nExamples:\n\n- 1.5 will be serialized as "1500m" - 1.5Gi will be serialized as "1536Mi"\n\nNote that the quantity is NOT able to be parsed by this type, but rather its string representation.';

/** Definitions for the scalar types that Kubernetes publishes under their own names. */
function wellKnown(type: string, flavor: Flavor): { name: string; schema: Json } | undefined {
  switch (type) {
    case 'Time':
      return { name: META_PREFIX + 'Time', schema: { description: TIME_DESCRIPTION, type: 'string', format: 'date-time' } };
    case 'MicroTime':
      return { name: META_PREFIX + 'MicroTime', schema: { description: MICROTIME_DESCRIPTION, type: 'string', format: 'date-time' } };
    case 'IntOrString':
      return {
        name: 'io.svc.apimachinery.pkg.util.intstr.IntOrString',
        schema: flavor === 'v3'
          ? { description: INT_OR_STRING_DESCRIPTION, format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, 'x-platform-int-or-string': true }
          : { description: INT_OR_STRING_DESCRIPTION, type: 'string', format: 'int-or-string', 'x-kubernetes-int-or-string': true, 'x-platform-int-or-string': true },
      };
    case 'Quantity':
      // Published as Kubernetes does: a string in v2, string-or-number in v3.
      return {
        name: 'io.svc.apimachinery.pkg.api.resource.Quantity',
        schema: flavor === 'v3'
          ? { description: QUANTITY_DESCRIPTION, oneOf: [{ type: 'string' }, { type: 'number' }] }
          : { description: QUANTITY_DESCRIPTION, type: 'string' },
      };
    default:
      return undefined;
  }
}

/** Collects published definitions for one document. */
export class DefinitionSet {
  readonly flavor: Flavor;
  private readonly defs = new Map<string, Json>();
  /** The schema each definition was built from (to tell a field's own description from the type's). */
  private readonly sources = new Map<string, unknown>();
  /** `x-ref` names that point at a definition published under another name (a kind's own x-ref). */
  private readonly aliases = new Map<string, string>();
  /** TypeBox `$id`s of recursive schemas being converted, to resolve their `$ref`s. */
  private readonly recursive = new Map<string, string>();

  constructor(flavor: Flavor) {
    this.flavor = flavor;
  }

  refTo(name: string): string {
    return this.flavor === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`;
  }

  has(name: string): boolean {
    return this.defs.has(name);
  }

  /** Adds a definition given in published form. */
  set(name: string, schema: Json): void {
    this.defs.set(name, schema);
  }

  get(name: string): Json | undefined {
    return this.defs.get(name);
  }

  /**
   * Publishes `schema` under `name` (a kind, or a named type) and returns the name. A schema whose
   * `x-ref` names it elsewhere is mapped to the same definition.
   */
  define(name: string, schema: TSchema, extra: Json = {}): string {
    const s = schema as unknown as Json;
    if (this.defs.has(name)) {
      Object.assign(this.defs.get(name)!, extra);
      return name;
    }
    const placeholder: Json = {};
    this.defs.set(name, placeholder);
    this.sources.set(name, schema);
    const ref = s['x-ref'];
    if (typeof ref === 'string') {
      const alias = definitionNameForRef(ref);
      if (alias !== name && !this.defs.has(alias) && !this.aliases.has(alias)) this.aliases.set(alias, name);
    }
    Object.assign(placeholder, this.convert(s, name), extra);
    return name;
  }

  /** Converts a schema in field position. */
  field(schema: TSchema): Json {
    return this.convert(schema as unknown as Json);
  }

  /** All definitions, sorted by name. */
  toObject(): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const name of [...this.defs.keys()].sort()) out[name] = this.defs.get(name)!;
    return out;
  }

  private refNode(name: string, field: Json): Json {
    const ref = this.refTo(name);
    const typeDescription = (this.sources.get(name) as Json | undefined)?.description;
    const own: Json = {};
    if (typeof field.description === 'string' && field.description !== typeDescription) own.description = field.description;
    for (const k of FIELD_ONLY) if (field[k] !== undefined) { own[k] = field[k]; own[MIRRORED[k]!] = field[k]; }
    if (!Object.keys(own).length) return { $ref: ref };
    // v3 wraps a described reference in allOf (siblings of $ref are ignored there); v2 keeps them side by side.
    return this.flavor === 'v3' ? { allOf: [{ $ref: ref }], ...own } : { $ref: ref, ...own };
  }

  /** Converts `s`; `rootName` is set when `s` is the body of that definition (so its x-ref is not a reference). */
  private convert(s: Json, rootName?: string): Json {
    if (rootName === undefined) {
      const xref = s['x-ref'];
      if (typeof xref === 'string') {
        const byRef = definitionNameForRef(xref);
        const name = this.aliases.get(byRef) ?? byRef;
        if (!this.defs.has(name)) this.define(name, typeOf(s) as unknown as TSchema);
        return this.refNode(name, s);
      }
      const platformType = s['x-platform-type'];
      if (typeof platformType === 'string') {
        const known = wellKnown(platformType, this.flavor);
        if (known) {
          if (!this.defs.has(known.name)) {
            this.defs.set(known.name, known.schema);
            this.sources.set(known.name, known.schema);
          }
          return this.refNode(known.name, s);
        }
      }
    }
    if (typeof s.$ref === 'string') {
      const target = this.recursive.get(s.$ref);
      if (target) return { $ref: this.refTo(target) };
      return this.untyped(s);
    }
    // A recursive TypeBox schema refers to itself by `$id`; that works only when it is a named definition.
    const id = typeof s.$id === 'string' ? s.$id : undefined;
    if (id !== undefined && rootName !== undefined) this.recursive.set(id, rootName);

    const out: Json = {};
    for (const k of PLAIN_KEYWORDS) if (s[k] !== undefined) out[k] = plain(s[k]);
    if (s.const !== undefined && out.enum === undefined) out.enum = [plain(s.const)];
    if (typeof s.exclusiveMinimum === 'number') { out.minimum = s.exclusiveMinimum; out.exclusiveMinimum = true; }
    if (typeof s.exclusiveMaximum === 'number') { out.maximum = s.exclusiveMaximum; out.exclusiveMaximum = true; }

    let type = s.type;
    if (Array.isArray(type)) {
      const nonNull = type.filter((t) => t !== 'null');
      if (nonNull.length !== type.length && this.flavor === 'v3') out.nullable = true;
      type = nonNull.length === 1 ? nonNull[0] : undefined;
    }
    if (type === 'null') type = undefined;
    if (typeof type === 'string') out.type = type;

    if (type === 'object' || s.properties !== undefined || s.patternProperties !== undefined) {
      const props = s.properties as Record<string, Json> | undefined;
      if (props && Object.keys(props).length) {
        const published: Json = {};
        for (const key of Object.keys(props).sort()) published[key] = this.convert(props[key]!);
        out.properties = published;
      }
      const required = s.required;
      if (Array.isArray(required) && required.length) out.required = [...required];
      const patterns = s.patternProperties as Record<string, Json> | undefined;
      const additional = s.additionalProperties;
      if (patterns && Object.keys(patterns).length) {
        out.additionalProperties = this.convert(Object.values(patterns)[0]!);
      } else if (additional && typeof additional === 'object') {
        out.additionalProperties = this.convert(additional as Json);
      }
    }
    if (type === 'array' && s.items && typeof s.items === 'object' && !Array.isArray(s.items)) {
      out.items = this.convert(s.items as Json);
    }

    const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (Array.isArray(union)) this.convertUnion(union, out, s.anyOf ? 'anyOf' : 'oneOf');
    if (Array.isArray(s.allOf)) {
      const parts = (s.allOf as Json[]).map((p) => this.convert(p));
      if (this.flavor === 'v3') out.allOf = parts;
      else for (const p of parts) mergeInto(out, p);
    }

    for (const key of Object.keys(s)) {
      if (!key.startsWith('x-') || INTERNAL.has(key)) continue;
      out[key] = plain(s[key]);
      const mirror = MIRRORED[key];
      if (mirror && s[mirror] === undefined) out[mirror] = plain(s[key]);
    }
    if (id !== undefined && rootName !== undefined) this.recursive.delete(id);
    return out;
  }

  private convertUnion(members: Json[], out: Json, keyword: 'anyOf' | 'oneOf'): void {
    const nonNull = members.filter((m) => m.type !== 'null');
    if (nonNull.length !== members.length && this.flavor === 'v3') out.nullable = true;
    const consts = nonNull.every((m) => m.const !== undefined);
    if (consts && nonNull.length) {
      // A union of literals is an enum.
      const types = new Set(nonNull.map((m) => (typeof m.type === 'string' ? m.type : typeof m.const)));
      if (types.size === 1 && out.type === undefined) out.type = [...types][0];
      out.enum = nonNull.map((m) => plain(m.const));
      return;
    }
    if (nonNull.length === 1) {
      mergeInto(out, this.convert(nonNull[0]!));
      return;
    }
    // v2 has no unions: leave the field untyped there.
    if (this.flavor === 'v3') out[keyword] = nonNull.map((m) => this.convert(m));
  }

  private untyped(s: Json): Json {
    const out: Json = {};
    if (typeof s.description === 'string') out.description = s.description;
    out['x-kubernetes-preserve-unknown-fields'] = true;
    out['x-platform-preserve-unknown-fields'] = true;
    return out;
  }
}

/** The named type behind a field: the type's own description (`x-type-description`), without the field's keys. */
function typeOf(field: Json): Json {
  const out: Json = { ...field };
  for (const k of FIELD_ONLY) delete out[k];
  if ('x-type-description' in field) out.description = field['x-type-description'];
  return out;
}

function mergeInto(target: Json, source: Json): void {
  for (const [k, v] of Object.entries(source)) if (target[k] === undefined) target[k] = v;
}

/** A deep copy holding only JSON data (no symbol keys, no functions). */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) if (typeof v !== 'function' && v !== undefined) out[k] = plain(v);
    return out;
  }
  return value;
}
