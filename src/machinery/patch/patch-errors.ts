// The errors Kubernetes v1.32 answers for JSON and merge patches (handlers/patch.go).
import { invalid as fieldInvalid } from '../field-errors.ts';
import { badRequest, invalid, requestEntityTooLarge, StatusError } from '../status.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Kubernetes' maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

/** 400 for a patch body that cannot be read (`error decoding patch: ...`, `Invalid JSON Patch`, Go json errors). */
export function patchBadRequest(message: string): StatusError {
  return badRequest(message);
}

/** 413: `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001`. */
export function tooManyPatchOperations(count: number): StatusError {
  return requestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`);
}

/**
 * 422 for a JSON patch operation that does not apply. Kubernetes wraps the library error in
 * NewGenericServerResponse: a fixed message, reason Invalid, and the error as an UnexpectedServerResponse cause.
 */
export function patchOperationFailed(message: string): StatusError {
  return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message }],
  });
}

/**
 * 422 when the patched document does not decode into the kind (a type error, or strict decoding errors under
 * fieldValidation=Strict): ` "" is invalid: patch: Invalid value: "<patched JSON>": <detail>`.
 * Kubernetes builds it with an empty kind and name, which kubectl prints as `The request is invalid`.
 */
export function patchedObjectInvalid(patched: unknown, detail: string): StatusError {
  return invalid('', '', '', [fieldInvalid('patch', JSON.stringify(patched), detail)]);
}
