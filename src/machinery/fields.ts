// Field selectors as Kubernetes has them (apimachinery pkg/fields): `a=b`, `a==b`, `a!=b`, joined by ','
// (AND), with '\' escaping ',', '=' and '\' in values. Errors carry Kubernetes' messages; the caller
// answers them with 400 BadRequest.

export interface FieldRequirement {
  field: string;
  /** `=` also stands for `==`. */
  operator: '=' | '!=';
  value: string;
}

/** A field selector parse or field-label error; its message is Kubernetes' text. */
export class FieldSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorError';
  }
}

/** Splits on commas that are not escaped; the escapes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

// "==" is tried before "=" so that "a==b" does not leave "=b" as the value.
const termOperators = ['!=', '==', '='] as const;

/** The first operator splits the term: the field part has no escaping. */
function splitTerm(term: string): [lhs: string, op: string, rhs: string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/** fields.UnescapeValue. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Go prints the rune with %v, i.e. as its number.
    else if (c === ',' || c === '=') throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** fields.EscapeValue. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

/**
 * Parses a field selector (fields.ParseSelector). Terms come back sorted by their text, as Kubernetes
 * sorts them; an empty string gives no requirements (everything).
 */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const parts = splitTerms(text).sort();
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new FieldSelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    reqs.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(rhs) });
  }
  return reqs;
}

/** Whether an object satisfies every requirement; a field the object lacks reads as ''. */
export function fieldSelectorMatches(reqs: readonly FieldRequirement[], getField: (field: string) => string | undefined): boolean {
  for (const r of reqs) {
    const have = getField(r.field) ?? '';
    if (r.operator === '=' ? have !== r.value : have === r.value) return false;
  }
  return true;
}

export interface FieldLabelOptions {
  /**
   * 'default': the kind registers no field label conversion (ConfigMap, Deployment, most kinds);
   * `metadata.name` and `metadata.namespace` are always accepted and others fail with
   * `"x" is not a known field selector: only "metadata.name", "metadata.namespace"`.
   * 'custom': the kind registers its own conversion (Pod, Node, Namespace, Secret, Service, Event,
   * ReplicationController, custom resources); only `supported` is accepted and others fail with
   * `field label not supported: x`.
   */
  style?: 'default' | 'custom';
  /** Old names the conversion rewrites, e.g. Pod's `spec.host` → `spec.nodeName`. */
  aliases?: Readonly<Record<string, string>>;
}

/**
 * Checks the fields a selector uses against those the kind supports (the API server's field label
 * conversion) and returns the requirements with aliases rewritten. Throws FieldSelectorError with
 * Kubernetes' message for the first unsupported field.
 */
export function checkFieldSelectorFields(reqs: readonly FieldRequirement[], supported: readonly string[], opts: FieldLabelOptions = {}): FieldRequirement[] {
  const style = opts.style ?? 'default';
  const allowed = new Set(supported);
  if (style === 'default') {
    allowed.add('metadata.name');
    allowed.add('metadata.namespace');
  }
  return reqs.map((r) => {
    const alias = opts.aliases && Object.prototype.hasOwnProperty.call(opts.aliases, r.field) ? opts.aliases[r.field] : undefined;
    if (alias !== undefined) return { ...r, field: alias };
    if (allowed.has(r.field)) return r;
    if (style === 'custom') throw new FieldSelectorError(`field label not supported: ${r.field}`);
    throw new FieldSelectorError(`${JSON.stringify(r.field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
  });
}

/** The selector's string form (`a=b,c!=d`), values escaped. */
export function fieldSelectorToString(reqs: readonly FieldRequirement[]): string {
  return reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
}

/** The value a field must equal, when an `=` requirement pins it (RequiresExactMatch). */
export function fieldSelectorRequiresExactMatch(reqs: readonly FieldRequirement[], field: string): string | undefined {
  return reqs.find((r) => r.field === field && r.operator === '=')?.value;
}
