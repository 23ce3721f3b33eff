// Turns a request body into an object of the addressed kind, as Kubernetes' create and update handlers do:
// parse, read apiVersion/kind (defaulted from the URL), refuse a type the URL does not serve, decode
// against the schema (type errors, unknown and duplicate fields per `fieldValidation`), convert to the
// storage version. A patched object goes through the same steps with the patch handler's 422 texts.
import YAML from '../machinery/yaml.ts';
import type { KindDefinition, VersionDefinition, ViewSubresource } from '../apis/kind.ts';
import { apiVersionOf } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { allKinds } from '../apis/index.ts';
import * as status from '../machinery/status.ts';
import { decodeObject } from '../machinery/schema/decode.ts';
import { parseJsonStrict, type KeyPositions } from '../machinery/schema/json-parse.ts';
import {
  cannotHandleMessage, strictDecodingDetail, strictDecodingErrors, strictDecodingFailure, strictDecodingWarnings, unrecognizedObjectMessage,
} from '../machinery/schema/decode-errors.ts';
import { patchedObjectInvalid } from '../machinery/patch/patch-errors.ts';
import { decodeBinaryBody } from '../server/codecs/body.ts';
import { bodyMediaTypes } from '../server/codecs/media-types.ts';
import { renamedGroupOf } from '../server/group-alias.ts';
import { deepClone } from '../machinery/schema/walk.ts';
import { goJsonKind, notAnObjectVersionKindError, versionKindError } from '../machinery/go-json.ts';
import { goQuote } from '../machinery/go-format.ts';
import { parseGroupVersion } from '../machinery/group-version.ts';

export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml'];

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface DecodedBody {
  object: ApiObject;
  warnings: string[];
}

/** A parsed body: the value, and its repeated keys with where they occur (for Go's error order). */
export interface ParsedBody {
  value: unknown;
  duplicates: string[];
  positions?: KeyPositions;
}

/** The decoder apimachinery uses to read apiVersion and kind, as Go names its type in errors. */
/** The scheme every built-in kind is registered in, as its "not registered" errors name it. */
const SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

/** 400 for a body whose type cannot even be read (malformed JSON, not an object). */
function unrecognized(expectedKind: string, detail: string, body: Buffer | string): status.StatusError {
  return status.badRequest(unrecognizedObjectMessage(expectedKind, detail, body));
}

/**
 * Parses JSON or YAML into plain data, reporting duplicate keys. A body that is not valid JSON is
 * Kubernetes' 400 `the object provided is unrecognized (must be of type X): couldn't get version/kind;
 * json parse error: ...`. Protobuf and CBOR bodies are read by the binary codecs; an unknown media type is a 415.
 */
export function parseBody(body: Buffer, mediaType: string, expectedKind: string, mediaTypes: string[] = bodyMediaTypes()): ParsedBody {
  const text = body.toString('utf8');
  if (mediaType === 'application/json' || mediaType === '') {
    try {
      return parseJsonStrict(text);
    } catch (err) {
      throw unrecognized(expectedKind, versionKindError((err as Error).message), body);
    }
  }
  if (mediaType === 'application/yaml') {
    let doc;
    try {
      doc = YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
      if (doc.errors.length) throw doc.errors[0];
      return { value: doc.toJS({ maxAliasCount: 100 }) ?? null, duplicates: [] };
    } catch (err) {
      throw unrecognized(expectedKind, `error converting YAML to JSON: ${(err as Error).message}`, body);
    }
  }
  const binary = decodeBinaryBody(body, mediaType, { kind: expectedKind });
  if (binary) return { value: binary.value, duplicates: [] };
  throw status.unsupportedMediaType('', mediaTypes);
}

let registered: Set<string> | undefined;

/** Whether `<apiVersion>|<Kind>` names a type some kind declares (in any version, served or not). */
function isRegistered(apiVersion: string, kind: string): boolean {
  if (!registered) {
    registered = new Set();
    for (const def of allKinds()) {
      for (const v of def.versions) {
        const av = apiVersionOf(def.group, v.name);
        registered.add(`${av}|${def.kind}`);
        registered.add(`${av}|${def.listKind ?? def.kind + 'List'}`);
      }
      // The kinds sub-resources take (autoscaling/v1 Scale, policy/v1 Eviction) are registered types too.
      for (const view of def.views ?? []) {
        for (const v of viewVersions(view)) registered.add(`${apiVersionOf(view.group, v)}|${view.kind}`);
      }
    }
  }
  return registered.has(`${apiVersion}|${kind}`);
}

/** The Go package a group's unversioned (internal) types live in: `core`, `apps`, `coordination`. */
function internalPackage(group: string): string {
  return group ? group.split('.')[0] : 'core';
}

/** What the body's apiVersion and kind resolve to. */
type Resolution =
  | { ok: true; version: VersionDefinition; apiVersion: string }
  /** `unrecognized`: the type could not be read; `decode`: Go's decoder refused it (text in `detail`). */
  | { ok: false; stage: 'unrecognized' | 'decode'; detail: string; kind: string; version: string };

/**
 * Reads apiVersion and kind the way the JSON serializer does: each defaults to the URL's when absent, a
 * type the scheme does not know or cannot convert into the URL's kind fails decoding, and a version of
 * the right kind other than the URL's is left for the caller to refuse. Kubernetes' name of the kind's
 * renamed group (what typed clients write: `rbac.authorization.k8s.io/v1`) reads as the group itself.
 */
function resolveType(raw: Record<string, unknown>, def: KindDefinition, urlVersion: VersionDefinition, body: () => string): Resolution {
  for (const field of ['apiVersion', 'kind'] as const) {
    const v = raw[field];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return { ok: false, stage: 'unrecognized', detail: versionKindError(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field .${field} of type string`), kind: '', version: '' };
    }
  }
  const bodyKind = (raw.kind as string | null | undefined) || def.kind;
  let gv = parseGroupVersion((raw.apiVersion as string | null | undefined) ?? '') ?? { group: '', version: '' };
  if (gv.group && gv.group !== def.group && renamedGroupOf(gv.group) === def.group) gv = { group: def.group, version: gv.version };
  if (gv.version === '' && gv.group === '') gv = { group: def.group, version: urlVersion.name };
  else if (gv.version === '' && gv.group === def.group) gv = { group: def.group, version: urlVersion.name };
  if (gv.version === '') {
    return { ok: false, stage: 'decode', detail: `Object 'apiVersion' is missing in '${body()}'`, kind: bodyKind, version: '' };
  }
  const apiVersion = apiVersionOf(gv.group, gv.version);
  if (!isRegistered(apiVersion, bodyKind)) {
    return { ok: false, stage: 'decode', detail: `no kind ${goQuote(bodyKind)} is registered for version ${goQuote(apiVersion)} in scheme ${goQuote(SCHEME_NAME)}`, kind: bodyKind, version: gv.version };
  }
  const sameKind = bodyKind === def.kind && gv.group === def.group;
  const version = sameKind ? def.versions.find((v) => v.name === gv.version) : undefined;
  if (!version) {
    return { ok: false, stage: 'decode', detail: `converting (${gv.version}.${bodyKind}) to (${internalPackage(def.group)}.${def.kind}): unknown conversion`, kind: bodyKind, version: gv.version };
  }
  return { ok: true, version, apiVersion };
}

/** A JSON object to decode, or the 400 Go's kind sniffing answers for anything else (`null` reads as `{}`). */
function asObject(value: unknown, def: KindDefinition, body: Buffer | string): Record<string, unknown> {
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw unrecognized(def.kind, notAnObjectVersionKindError(value), body);
  }
  return value as Record<string, unknown>;
}

function bodyText(body: Buffer | string): string {
  return typeof body === 'string' ? body : body.toString('utf8');
}

export function decodeBody(body: Buffer, mediaType: string, def: KindDefinition, version: VersionDefinition, fieldValidation: FieldValidation): DecodedBody {
  return decodeValue(parseBody(body, mediaType, def.kind), def, version, fieldValidation, body);
}

/**
 * Decodes a parsed request body (create, update) into the storage version. Throws 400: unreadable type,
 * a type that is not the URL's (`Secret in version "v1" cannot be handled as a ConfigMap: ...`), a field
 * of the wrong type, strict decoding errors under Strict, or an apiVersion other than the URL's.
 */
/** `toStorageForm` false: the object stays in the request's version (apply merges there first). */
export function decodeValue(parsed: ParsedBody, def: KindDefinition, urlVersion: VersionDefinition, fieldValidation: FieldValidation, body: Buffer | string, toStorageForm = true): DecodedBody {
  const raw = asObject(parsed.value, def, body);
  const type = resolveType(raw, def, urlVersion, () => bodyText(body));
  if (!type.ok) {
    if (type.stage === 'unrecognized') throw unrecognized(def.kind, type.detail, body);
    throw status.badRequest(cannotHandleMessage(type.kind, type.version, type.detail, def.kind));
  }
  const decoded = decodeObject(raw, type.version.schema, { kind: def.kind, apiVersion: type.apiVersion });
  if (decoded.typeError) throw status.badRequest(cannotHandleMessage(def.kind, type.version.name, decoded.typeError));
  const warnings: string[] = [];
  if (fieldValidation !== 'Ignore' && (decoded.unknownFields.length || parsed.duplicates.length)) {
    if (fieldValidation === 'Strict') throw strictDecodingFailure(def.kind, type.version.name, decoded.unknownFields, parsed.duplicates, parsed.positions);
    warnings.push(...strictDecodingWarnings(decoded.unknownFields, parsed.duplicates, parsed.positions));
  }
  if (type.version !== urlVersion) throw apiVersionMismatch(type.apiVersion, def, urlVersion);
  return { object: toStorage(decoded.object as ApiObject, def, toStorageForm ? type.version : undefined, type.apiVersion), warnings };
}

function viewVersions(view: ViewSubresource): string[] {
  return [view.version, ...(view.alsoAccepts ?? [])];
}

const viewKinds = new WeakMap<ViewSubresource, KindDefinition>();

/** A view sub-resource's kind as a definition the body decoder reads: its group, kind and accepted versions. */
function viewKindOf(view: ViewSubresource): KindDefinition {
  let def = viewKinds.get(view);
  if (!def) {
    const schema = view.schema!;
    def = {
      group: view.group, kind: view.kind, plural: view.name, singular: view.name, namespaced: false, storageVersion: view.version,
      versions: viewVersions(view).map((name) => ({ name, stability: 'stable' as const, schema })),
    };
    viewKinds.set(view, def);
  }
  return def;
}

/**
 * Decodes the body of a POST to a view sub-resource (a policy/v1 Eviction) as a create's body is decoded,
 * in whichever of the versions the view accepts it names (the first when it names none).
 */
export function decodeViewCreateBody(body: Buffer, mediaType: string, view: ViewSubresource, fieldValidation: FieldValidation): DecodedBody {
  const def = viewKindOf(view);
  const parsed = parseBody(body, mediaType, view.kind);
  const named = parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as { apiVersion?: unknown }).apiVersion : undefined;
  const gv = typeof named === 'string' ? parseGroupVersion(named) : undefined;
  const version = def.versions.find((v) => gv?.group === def.group && v.name === gv.version) ?? def.versions[0];
  return decodeValue(parsed, def, version, fieldValidation, body, false);
}

function apiVersionMismatch(apiVersion: string, def: KindDefinition, urlVersion: VersionDefinition): status.StatusError {
  return status.badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(def.group, urlVersion.name)})`);
}

/** The decoded object's type and metadata filled in, converted to the storage form by `version` when given. */
function toStorage(obj: ApiObject, def: KindDefinition, version: VersionDefinition | undefined, apiVersion: string): ApiObject {
  obj.apiVersion = apiVersion;
  obj.kind = def.kind;
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  return version?.toStorage ? version.toStorage(obj) : obj;
}

/**
 * Decodes the result of applying a patch (the patch handler's DecodeInto). Failures are the 422
 * ` "" is invalid: patch: Invalid value: "<patched JSON>": <error>`; strict decoding errors (the patch's
 * own, `patchStrictErrors`, then the object's) are that 422 under Strict and warnings under Warn.
 * The object may name another served version of its kind: it is converted. Decoding works in place:
 * `patchAgain`, when given, makes the document as the patch left it again for the 422 (else it is copied
 * before decoding, in case it is needed).
 */
export function decodePatchedObject(patched: unknown, def: KindDefinition, urlVersion: VersionDefinition, fieldValidation: FieldValidation, patchStrictErrors: readonly string[], patchAgain?: () => unknown): DecodedBody {
  const copy = patchAgain ? undefined : deepClone(patched);
  // Until decoding starts the document is as the patch left it.
  let decoding = false;
  const shown = () => (copy !== undefined ? copy : decoding ? patchAgain!() : patched);
  if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) {
    throw patchedObjectInvalid(shown(), notAnObjectVersionKindError(patched));
  }
  const raw = patched as Record<string, unknown>;
  const type = resolveType(raw, def, urlVersion, () => JSON.stringify(shown()));
  if (!type.ok) throw patchedObjectInvalid(shown(), type.detail);
  decoding = true;
  const decoded = decodeObject(raw, type.version.schema, { kind: def.kind, apiVersion: type.apiVersion });
  if (decoded.typeError) throw patchedObjectInvalid(shown(), decoded.typeError);
  const warnings: string[] = [];
  if (fieldValidation !== 'Ignore') {
    const errors = [...patchStrictErrors, ...strictDecodingErrors(decoded.unknownFields, [])];
    if (errors.length && fieldValidation === 'Strict') throw patchedObjectInvalid(shown(), strictDecodingDetail(errors));
    warnings.push(...errors);
  }
  return { object: toStorage(decoded.object as ApiObject, def, type.version, type.apiVersion), warnings };
}
