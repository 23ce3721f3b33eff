// The body of a server-side apply: YAML (JSON is YAML too), which must be a map.
import YAML from '../yaml.ts';
import { badRequest } from '../status.ts';
import { JsonSyntaxError, parseJsonStrict, type KeyPositions } from '../schema/json-parse.ts';
import { goJsonKind } from '../go-json.ts';

export interface ApplyBody {
  /** The configuration as sent. */
  value: Record<string, unknown>;
  /** Keys repeated in one map (JSON bodies), for strict field validation. */
  duplicates: string[];
  positions?: KeyPositions;
}

/** Reads an apply body; throws 400 `error decoding YAML: ...` when it is not a YAML or JSON map. */
export function decodeApplyBody(text: string): ApplyBody {
  let value: unknown;
  let duplicates: string[] = [];
  let positions: KeyPositions | undefined;
  try {
    const parsed = parseJsonStrict(text);
    ({ value, duplicates, positions } = parsed);
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    const doc = YAML.parseDocument(text, { uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length) throw badRequest(`error decoding YAML: error converting YAML to JSON: ${doc.errors[0].message}`);
    value = doc.toJS({ maxAliasCount: 100 });
  }
  if (value === null || value === undefined) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`);
  }
  return { value: value as Record<string, unknown>, duplicates, positions };
}
