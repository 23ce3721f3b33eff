// The PATCH body formats the server applies, by Content-Type. Each reads its body once (before the update
// loop: a malformed patch is a 400, too many JSON patch operations a 413) and is then applied to every
// fresh read of the object. Server-side apply adds its format here.
import { decodeJsonPatch, applyJsonPatch } from '../../machinery/patch/json-patch.ts';
import { decodeMergePatch, applyMergePatch } from '../../machinery/patch/merge-patch.ts';
import { decodeStrategicPatch, strategicMergePatch, StrategicPatchError } from '../../machinery/patch/strategic.ts';
import { decodeApplyBody, type ApplyBody } from '../../machinery/apply/apply-body.ts';
import type { TSchema } from '@sinclair/typebox';
import type { FieldValidation } from '../params.ts';
import { decodeBinaryBody } from '../codecs/body.ts';
import { APPLY_PATCH_CBOR_TYPE, APPLY_PATCH_YAML_TYPE, cborEnabled } from '../codecs/media-types.ts';

export interface DecodedPatch {
  /** Strict decoding errors of the patch itself, added to those of the patched object. */
  strictErrors: string[];
  /** The patched document (the input is left untouched). Throws StatusError 422 when an operation fails. */
  apply(current: unknown): unknown;
  /** Server-side apply: the parsed configuration, merged by the field manager instead of `apply`. */
  applyBody?: ApplyBody;
}

export interface PatchFormat {
  /** Reads the patch body; throws StatusError 400 (or 413) when it cannot be used. `schema` is the schema
   *  of the patched document (strategic merge reads its patch markers; absent for free-form views). */
  decode(text: string, fieldValidation: FieldValidation, schema?: TSchema): DecodedPatch;
  /** Server-side apply: `force` and `fieldManager` rules differ, and a missing object may be created. */
  apply?: boolean;
}

export const PATCH_FORMATS: Record<string, PatchFormat> = {
  'application/json-patch+json': {
    decode(text, fieldValidation) {
      const patch = decodeJsonPatch(text, fieldValidation);
      return { strictErrors: patch.strictErrors, apply: (current) => applyJsonPatch(current, patch) };
    },
  },
  'application/merge-patch+json': {
    decode(text, fieldValidation) {
      const patch = decodeMergePatch(text, fieldValidation);
      return { strictErrors: patch.strictErrors, apply: (current) => applyMergePatch(current, patch.patch) };
    },
  },
  'application/strategic-merge-patch+json': {
    decode(text, fieldValidation, schema) {
      const patch = decodeStrategicPatch(text, fieldValidation);
      return {
        strictErrors: patch.strictErrors,
        apply: (current) => {
          try {
            return strategicMergePatch(current as Record<string, unknown>, patch.patch, schema);
          } catch (err) {
            throw err instanceof StrategicPatchError ? err.toStatus() : err;
          }
        },
      };
    },
  },
  [APPLY_PATCH_YAML_TYPE]: {
    apply: true,
    decode(text) {
      const applyBody = decodeApplyBody(text);
      return { strictErrors: [], applyBody, apply: () => applyBody.value };
    },
  },
};

/** The media types PATCH accepts, as the 415 lists them. */
export function patchMediaTypes(): string[] {
  const types = Object.keys(PATCH_FORMATS);
  return patchFormatFor(APPLY_PATCH_CBOR_TYPE) ? [...types, APPLY_PATCH_CBOR_TYPE] : types;
}

/** The format of a PATCH Content-Type. `application/apply-patch+cbor` (CBOR gate on) is apply with a CBOR body. */
export function patchFormatFor(mediaType: string): PatchFormat | undefined {
  if (mediaType === APPLY_PATCH_CBOR_TYPE) return cborEnabled() ? PATCH_FORMATS[APPLY_PATCH_YAML_TYPE] : undefined;
  return PATCH_FORMATS[mediaType];
}

/** The patch body as the formats read it: a CBOR apply body is transcoded to JSON text (which YAML reads). */
export function patchBodyText(body: Buffer, mediaType: string): string {
  if (mediaType !== APPLY_PATCH_CBOR_TYPE) return body.toString('utf8');
  const decoded = decodeBinaryBody(body, mediaType);
  return JSON.stringify(decoded?.value ?? null);
}
