// The body of a server-side apply: YAML (JSON is YAML too), which must be a map. Kubernetes reads every apply
// body with its YAML decoder, so a key set twice in one map takes its last value, and fieldValidation judges
// the repeats as yaml.v2's strict decoding reports them (after the merge, before admission).
import YAML from '../yaml.ts';
import { badRequest } from '../status.ts';
import { JsonSyntaxError, parseJsonStrict } from '../schema/json-parse.ts';
import { goJsonKind } from '../go-json.ts';
import { duplicateKeys } from './yaml-duplicate-keys.ts';

export interface ApplyBody {
  /** The configuration as sent. */
  value: Record<string, unknown>;
  /** Keys set twice in one map, as yaml.v2 reports them: `line 3: key "k" already set in map`. */
  duplicateKeys: string[];
}

const PARSE_OPTIONS = { uniqueKeys: false, prettyErrors: false } as const;

/** Reads an apply body; throws 400 `error decoding YAML: ...` when it is not a YAML or JSON map. */
export function decodeApplyBody(text: string): ApplyBody {
  let value: unknown;
  let repeated: string[] = [];
  try {
    const parsed = parseJsonStrict(text);
    value = parsed.value;
    // The common body repeats nothing; only then is it read again as YAML, for yaml.v2's line numbers.
    if (parsed.duplicates.length) {
      const doc = YAML.parseDocument(text, PARSE_OPTIONS);
      if (!doc.errors.length) repeated = duplicateKeys(doc, text);
    }
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const doc = YAML.parseDocument(text, PARSE_OPTIONS);
    if (doc.errors.length) throw badRequest(`error decoding YAML: error converting YAML to JSON: ${doc.errors[0].message}`);
    value = doc.toJS({ maxAliasCount: 100 });
    repeated = duplicateKeys(doc, text);
  }
  if (value === null || value === undefined) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`);
  }
  return { value: value as Record<string, unknown>, duplicateKeys: repeated };
}

/**
 * fieldValidation on an apply body's repeated keys: Strict fails with 400 `error strict decoding YAML: ...`,
 * Warn adds one warning per repeat, Ignore says nothing.
 */
export function checkDuplicateKeys(body: ApplyBody, fieldValidation: 'Strict' | 'Warn' | 'Ignore', warnings: string[]): void {
  if (!body.duplicateKeys.length || fieldValidation === 'Ignore') return;
  if (fieldValidation === 'Strict') {
    throw badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  ${body.duplicateKeys.join('\n  ')}`);
  }
  for (const w of body.duplicateKeys) if (!warnings.includes(w)) warnings.push(w);
}
