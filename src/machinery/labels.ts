// Label selectors as Kubernetes has them (apimachinery pkg/labels): the string form a `labelSelector=`
// query takes, and metav1 LabelSelector objects. Parse errors carry Kubernetes' messages; the caller
// answers them with 400 BadRequest.
import type { LabelSelectorInput } from './validation/objectmeta.ts';
import { isQualifiedName, isValidLabelValue } from './validation/strings.ts';
import { aggregate, goQuote, goStringSlice } from './go-format.ts';

/** selection.Operator values. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  /** Sorted and de-duplicated for parsed `in`/`notin`; one value for `=`, `==`, `!=`, `gt`, `lt`; empty for exists. */
  values: string[];
}

export interface LabelSelectorMatcher {
  /** True when the selector does not restrict anything (matches every object). */
  readonly empty: boolean;
  /** True for the selector of a null LabelSelector object, which matches no object. */
  readonly matchesNothing: boolean;
  /** Requirements sorted by key; all must hold. */
  readonly requirements: readonly LabelRequirement[];
  matches(labels: Record<string, string> | undefined | null): boolean;
  /** The canonical string form (`a=b,c in (d,e)`); empty for everything and nothing. */
  toString(): string;
  /** The single value a key must have, if the selector pins it with `=`, `==` or a one-value `in`. */
  requiresExactMatch(key: string): string | undefined;
}

/** A label selector parse or construction error; its message is Kubernetes' text. */
export class LabelSelectorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorError';
  }
}

// ---- Go-style error text ----

/** field.Invalid(...).Error(): `path: Invalid value: <value>: detail`. */
function invalidText(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${value}: ${detail}`;
}

const operatorNames: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];
const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

const int64Re = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!int64Re.test(s)) return undefined;
  const v = BigInt(s);
  return v < int64Min || v > int64Max ? undefined : v;
}

/**
 * labels.NewRequirement: validates key, operator and values, throwing the aggregated field errors.
 * `path` prefixes the field paths (`key`, `values[0][k]`), as field.WithPath does.
 */
export function newRequirement(key: string, operator: LabelOperator, values: string[], path = ''): LabelRequirement {
  const p = (name: string) => (path ? `${path}.${name}` : name);
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(invalidText(p('key'), goQuote(key), keyErrs.join('; ')));
  const valuesPath = p('values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) errs.push(invalidText(valuesPath, goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) errs.push(invalidText(valuesPath, goStringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) errs.push(invalidText(valuesPath, goStringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) errs.push(invalidText(valuesPath, goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalidText(`${valuesPath}[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(`${p('operator')}: Unsupported value: ${goQuote(String(operator))}: supported values: ${operatorNames.map((o) => goQuote(o)).join(', ')}`);
  }
  values.forEach((v, i) => {
    const ve = isValidLabelValue(v);
    if (ve.length) errs.push(invalidText(`${valuesPath}[${i}][${key}]`, goQuote(v), ve.join('; ')));
  });
  if (errs.length) throw new LabelSelectorError(aggregate(errs));
  return { key, operator, values };
}

function requirementMatches(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(labels[r.key]);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(labels[r.key]);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const have = parseInt64(labels[r.key]);
      const want = parseInt64(r.values[0]);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** Requirement.String(): values are printed sorted. */
export function requirementToString(r: LabelRequirement): string {
  let s = r.operator === '!' ? '!' + r.key : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case 'in':
      s += ' in ';
      break;
    case 'notin':
      s += ' notin ';
      break;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    default:
      s += r.operator;
  }
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort().join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${vals})` : s + vals;
}

function byKey(a: LabelRequirement, b: LabelRequirement): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

class RequirementsSelector implements LabelSelectorMatcher {
  readonly requirements: readonly LabelRequirement[];
  readonly matchesNothing = false;
  constructor(reqs: LabelRequirement[]) {
    this.requirements = [...reqs].sort(byKey);
  }
  get empty(): boolean {
    return this.requirements.length === 0;
  }
  matches(labels: Record<string, string> | undefined | null): boolean {
    const l = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, l));
  }
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
  requiresExactMatch(key: string): string | undefined {
    const r = this.requirements.find((q) => q.key === key);
    if (!r) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }
}

const nothing: LabelSelectorMatcher = {
  empty: false,
  matchesNothing: true,
  requirements: [],
  matches: () => false,
  toString: () => '',
  requiresExactMatch: () => undefined,
};

/** labels.Everything(). */
export function everythingSelector(): LabelSelectorMatcher {
  return new RequirementsSelector([]);
}

/** labels.Nothing(). */
export function nothingSelector(): LabelSelectorMatcher {
  return nothing;
}

/** labels.SelectorFromSet: exact matches for every pair, without validation. */
export function selectorFromSet(set: Record<string, string> | undefined | null): LabelSelectorMatcher {
  return new RequirementsSelector(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

// ---- the string syntax (labels.Parse) ----

type Token =
  | 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

const literalTokens: Record<string, Token> = {
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', 'in': 'in', '<': '<', '!=': '!=', 'notin': 'notin', '(': '(',
};

interface Item {
  tok: Token;
  lit: string;
}

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

function lookupToken(s: string): Token | undefined {
  return Object.prototype.hasOwnProperty.call(literalTokens, s) ? literalTokens[s] : undefined;
}

function lex(s: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  const read = (): string => (pos < s.length ? s[pos++] : '');
  for (;;) {
    let ch = read();
    while (ch !== '' && isWhitespace(ch)) ch = read();
    if (ch === '') {
      items.push({ tok: 'eos', lit: '' });
      return items;
    }
    if (isSpecialSymbol(ch)) {
      // Longest run of special symbols that still forms a token ("!=" but "=" then "(").
      pos--;
      let buffer = '';
      let last: Item | undefined;
      for (;;) {
        const c = read();
        if (c === '') break;
        if (isSpecialSymbol(c)) {
          buffer += c;
          const t = lookupToken(buffer);
          if (t) {
            last = { tok: t, lit: buffer };
          } else if (last) {
            pos--;
            break;
          }
        } else {
          pos--;
          break;
        }
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buffer}'` });
      continue;
    }
    pos--;
    let buffer = '';
    for (;;) {
      const c = read();
      if (c === '') break;
      if (isSpecialSymbol(c) || isWhitespace(c)) {
        pos--;
        break;
      }
      buffer += c;
    }
    items.push({ tok: lookupToken(buffer) ?? 'id', lit: buffer });
  }
}

type Context = 'keyAndOperator' | 'values';

class Parser {
  items: Item[];
  position = 0;
  constructor(text: string) {
    this.items = lex(text);
  }

  lookahead(ctx: Context): Item {
    return this.adjust(this.items[this.position], ctx);
  }

  consume(ctx: Context): Item {
    return this.adjust(this.items[this.position++], ctx);
  }

  /** In value position, `in` and `notin` are ordinary identifiers. */
  adjust(item: Item, ctx: Context): Item {
    if (ctx === 'values' && (item.tok === 'in' || item.tok === 'notin')) return { tok: 'id', lit: item.lit };
    return item;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead('values');
      if (tok === 'id' || tok === '!') {
        let r: LabelRequirement;
        try {
          r = this.parseRequirement();
        } catch (err) {
          throw new LabelSelectorError(`unable to parse requirement: ${(err as Error).message}`);
        }
        reqs.push(r);
        const t = this.consume('values');
        if (t.tok === 'eos') return reqs;
        if (t.tok === ',') {
          const t2 = this.lookahead('values');
          if (t2.tok !== 'id' && t2.tok !== '!') throw new LabelSelectorError(`found '${t2.lit}', expected: identifier after ','`);
        } else {
          throw new LabelSelectorError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === 'eos') {
        return reqs;
      } else {
        throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  parseRequirement(): LabelRequirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, [...values].sort());
  }

  parseKeyAndInferOperator(): [string, LabelOperator | undefined] {
    let operator: LabelOperator | undefined;
    let item = this.consume('values');
    if (item.tok === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'id') throw new Error(`found '${item.lit}', expected: identifier`);
    const keyErrs = isQualifiedName(item.lit);
    // The parser validates keys with a nil field path, which Go prints as "<nil>".
    if (keyErrs.length) throw new Error(invalidText('<nil>', goQuote(item.lit), keyErrs.join('; ')));
    const next = this.lookahead('values').tok;
    if ((next === 'eos' || next === ',') && operator !== '!') operator = 'exists';
    return [item.lit, operator];
  }

  parseOperator(): LabelOperator {
    const { tok, lit } = this.consume('keyAndOperator');
    switch (tok) {
      case 'in': return 'in';
      case '=': return '=';
      case '==': return '==';
      case '>': return 'gt';
      case '<': return 'lt';
      case 'notin': return 'notin';
      case '!=': return '!=';
      default: throw new Error(`found '${lit}', expected: ${binaryOperators}`);
    }
  }

  parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead('values');
    if (tok === 'id' || tok === ',') {
      const s = this.parseIdentifiersList();
      if (this.consume('values').tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === ')') {
      this.consume('values');
      return new Set(['']);
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume('values');
      if (tok === 'id') {
        s.add(lit);
        const next = this.lookahead('values');
        if (next.tok === ',') continue;
        if (next.tok === ')') return s;
        throw new Error(`found '${next.lit}', expected: ',' or ')'`);
      } else if (tok === ',') {
        // Empty values between commas, as in "(,a)", "(a,)" and "(a,,b)".
        if (s.size === 0) s.add('');
        const next = this.lookahead('values').tok;
        if (next === ')') {
          s.add('');
          return s;
        }
        if (next === ',') s.add('');
      } else {
        throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'eos' || next === ',') return new Set(['']);
    const { tok, lit } = this.consume('values');
    if (tok === 'id') return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

/**
 * Parses a label selector string (`a=b,c!=d,e in (f,g),!h,i,j>5`). Throws LabelSelectorError with
 * Kubernetes' message when the text is invalid. An empty string selects everything.
 */
export function parseLabelSelector(text: string): LabelSelectorMatcher {
  return new RequirementsSelector(new Parser(text).parse());
}

// ---- metav1.LabelSelector objects ----

const objectOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, an empty object everything.
 * Throws LabelSelectorError for an invalid selector.
 */
export function labelSelectorFromObject(sel: LabelSelectorInput | undefined | null): LabelSelectorMatcher {
  if (sel === undefined || sel === null) return nothing;
  const labels = sel.matchLabels ?? {};
  const exprs = sel.matchExpressions ?? [];
  if (Object.keys(labels).length + exprs.length === 0) return everythingSelector();
  const reqs: LabelRequirement[] = [];
  for (const k of Object.keys(labels).sort()) reqs.push(newRequirement(k, '=', [labels[k]]));
  for (const e of exprs) {
    const op = e.operator !== undefined && Object.prototype.hasOwnProperty.call(objectOperators, e.operator) ? objectOperators[e.operator] : undefined;
    if (!op) throw new LabelSelectorError(`${goQuote(String(e.operator ?? ''))} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key ?? '', op, [...(e.values ?? [])]));
  }
  return new RequirementsSelector(reqs);
}

/** The string form of a LabelSelector object, as Scale.status.selector carries it ('' selects everything). */
export function labelSelectorToString(sel: LabelSelectorInput | undefined | null): string {
  return labelSelectorFromObject(sel).toString();
}

/** metav1.FormatLabelSelector, as kubectl describe shows it: `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(sel: LabelSelectorInput | undefined | null): string {
  let s: string;
  try {
    s = labelSelectorFromObject(sel).toString();
  } catch {
    return '<error>';
  }
  return s === '' ? '<none>' : s;
}

/** Whether a LabelSelector object selects these labels (null selects nothing, {} everything). */
export function labelSelectorMatches(sel: LabelSelectorInput | undefined | null, labels: Record<string, string> | undefined | null): boolean {
  return labelSelectorFromObject(sel).matches(labels);
}
