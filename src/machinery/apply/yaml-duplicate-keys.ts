// Keys a YAML document (an apply body; JSON is YAML too) sets twice in one map, as Go's yaml.v2 strict
// decoding reports them: `line N: key "k" already set in map`. N is the 1-based line where the repeated
// key's value starts (yaml.v2 names the value node); every repeat after the first is reported, and a value's
// own repeats come before its key's, as yaml.v2 decodes a value before setting it in its map.
import type * as Yaml from 'yaml';
import { goQuote } from '../go-format.ts';
import { lazyModule } from '../lazy.ts';
import { goFloat } from '../go-value.ts';

const yaml = lazyModule<typeof Yaml>('yaml', import.meta.url);

/** The repeated keys of `doc`, parsed from `text` (with uniqueKeys off), in yaml.v2's order. */
export function duplicateKeys(doc: Yaml.Document, text: string): string[] {
  const out: string[] = [];
  const lineOf = lineFinder(text);
  const visiting = new Set<unknown>();
  const visit = (node: unknown): void => {
    const { isAlias, isMap, isScalar, isSeq } = yaml();
    if (isAlias(node)) {
      // yaml.v2 decodes the anchored node again at each alias.
      const target = node.resolve(doc);
      if (!target || visiting.has(target)) return;
      visiting.add(target);
      visit(target);
      visiting.delete(target);
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        visit(pair.value);
        const key = isScalar(pair.key) ? pair.key : undefined;
        // Merge keys merge instead of setting; a map or list key fails the decoding on its own.
        if (!key || (key.value === '<<' && key.type === 'PLAIN')) continue;
        const id = keyIdentity(key);
        if (!seen.has(id)) { seen.add(id); continue; }
        const at = (pair.value as { range?: [number, number, number] } | null)?.range?.[0] ?? key.range?.[1] ?? 0;
        out.push(`line ${lineOf(at)}: key ${goKey(key)} already set in map`);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return out;
}

/** A key as Go compares interface{} keys: by type, then value (`1` and `1.0` are an int and a float). */
function keyIdentity(key: Yaml.Scalar): string {
  const v = key.value;
  if (typeof v === 'number') return (isIntegerKey(key) ? 'i:' : 'f:') + String(v);
  if (typeof v === 'boolean') return 'b:' + String(v);
  if (v === null || v === undefined) return 'n';
  return 's:' + String(v);
}

function isIntegerKey(key: Yaml.Scalar): boolean {
  const source = (key as { source?: unknown }).source;
  return Number.isInteger(key.value) && !(typeof source === 'string' && /[.eE]/.test(source) && !/^0x/i.test(source));
}

/** The key as `%#v` prints the decoded value: a quoted string, a bare number or boolean, `<nil>`. */
function goKey(key: Yaml.Scalar): string {
  const v = key.value;
  if (typeof v === 'number') return isIntegerKey(key) ? String(v) : goFloat(v);
  if (typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return '<nil>';
  return goQuote(String(v));
}

/** The 1-based line of an offset (a CR LF ends a line by its LF). */
function lineFinder(text: string): (offset: number) => number {
  let breaks: number[] | undefined;
  return (offset) => {
    if (!breaks) {
      breaks = [];
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) === 0x0a) breaks.push(i);
      }
    }
    let lo = 0, hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (breaks[mid] < offset) lo = mid + 1; else hi = mid;
    }
    return lo + 1;
  };
}
