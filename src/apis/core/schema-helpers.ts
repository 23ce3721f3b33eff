// Small schema helpers shared by the core and coordination kinds.
import type { TSchema } from '@sinclair/typebox';

/** The same schema with a protobuf field number (for embedded shared types such as ObjectMeta). */
export function withProto<T extends TSchema>(schema: T, proto: number): T {
  return { ...schema, 'x-proto': proto };
}

/**
 * A property Go inlines from an embedded struct (a Volume's sources, a Probe's handler, the `name` of an
 * embedded LocalObjectReference): in protobuf it travels inside the message at field `outer` of its parent,
 * as that message's field `x-proto`.
 */
export function inlined<T extends TSchema>(schema: T, outer: number): T {
  return { ...schema, 'x-proto-embedded': outer };
}

/**
 * A field of a named type with the field's own description (and extension keys such as a patch strategy);
 * OpenAPI keeps the type's description on the type's definition.
 */
export function described<T extends TSchema>(schema: T, proto: number, description: string, extra: Record<string, unknown> = {}): T {
  return { ...schema, 'x-proto': proto, 'x-type-description': schema.description, ...extra, description };
}
