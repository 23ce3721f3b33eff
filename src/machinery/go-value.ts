// Go's fmt of a decoded JSON value (an interface{} holding float64, string, bool, nil, []interface{} or
// map[string]interface{}) as messages Kubernetes copies print it (structured merge's typing errors,
// strategic merge patch errors, metric values): `%v`, `%#v` and `%T`. Every JSON number decodes to
// float64 in Go, so numbers print as strconv's shortest 'g' form.
import { goQuote } from './go-format.ts';
import { compareStrings, isObject } from './apply/value.ts';

/** strconv.FormatFloat(v, 'g', -1, 64): `1`, `0.25`, `1e+06`, `1.5e-05`. */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, exp] = v.toExponential().split('e');
  const exponent = Number(exp);
  // The shortest form switches to an exponent below 1e-04 and from 1e+06 up.
  if (exponent < -4 || exponent >= 6) return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return String(v);
}

function sortedKeys(m: Record<string, unknown>): string[] {
  return Object.keys(m).sort(compareStrings);
}

/** `%v`: `map[a:1 b:[x y]]` (keys sorted), strings bare, null as `<nil>`. */
export function goSprintV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return '[' + v.map(goSprintV).join(' ') + ']';
  if (isObject(v)) return 'map[' + sortedKeys(v).map((k) => `${k}:${goSprintV(v[k])}`).join(' ') + ']';
  return String(v);
}

/** `%#v` of the value inside an interface{}: `map[string]interface {}{"a":1}`, `[]interface {}{"x"}`. */
export function goSprintSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'number') return goFloat(v);
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return '[]interface {}{' + v.map(goSprintSharpV).join(', ') + '}';
  if (isObject(v)) return 'map[string]interface {}{' + sortedKeys(v).map((k) => `${goQuote(k)}:${goSprintSharpV(v[k])}`).join(', ') + '}';
  return String(v);
}

/** `%T`: the Go type a decoded JSON value has. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}
