// Protobuf's wire format (@bufbuild/protobuf/wire: 19 modules, ~3 MB of a server's memory), loaded when the
// first protobuf body is read or written rather than by every server. The same names as the library's:
// BinaryReader and BinaryWriter construct the library's classes, WireType holds the wire types' numbers
// (fixed by the protobuf encoding).
import type * as Wire from '@bufbuild/protobuf/wire';
import { lazyClass, lazyModule } from '../../machinery/lazy.ts';

const wire = lazyModule<typeof Wire>('@bufbuild/protobuf/wire', import.meta.url);

export const BinaryReader = lazyClass(() => wire().BinaryReader);
export type BinaryReader = Wire.BinaryReader;
export const BinaryWriter = lazyClass(() => wire().BinaryWriter);
export type BinaryWriter = Wire.BinaryWriter;

export const WireType = {
  Varint: 0,
  Bit64: 1,
  LengthDelimited: 2,
  StartGroup: 3,
  EndGroup: 4,
  Bit32: 5,
} as const satisfies Record<keyof typeof Wire.WireType & string, number> as unknown as typeof Wire.WireType;
export type WireType = Wire.WireType;
