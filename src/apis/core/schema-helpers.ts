// Small schema helpers shared by the core and coordination kinds.
import type { TSchema } from '@sinclair/typebox';

/** The same schema with a protobuf field number (for embedded shared types such as ObjectMeta). */
export function withProto<T extends TSchema>(schema: T, proto: number): T {
  return { ...schema, 'x-proto': proto };
}
