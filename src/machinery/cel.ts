// A small evaluator for the subset of CEL that authorization match conditions use. No CEL library is
// installed, so this one module stands in for one: literals (int, double, string, bool, null, lists,
// maps), field selection and indexing, `! - * / % + == != < <= > >= in && || ?:`, the `has()`, `all`,
// `exists`, `exists_one`, `map` and `filter` macros, `size()`, string methods (`startsWith`, `endsWith`,
// `contains`, `matches`, `lowerAscii`, `upperAscii`, `trim`, `split`, `join` on lists, `indexOf`), and
// `string()`, `int()` and `bool()`. Typed variables (the SubjectAccessReview spec) answer unset fields with
// their zero value, as CEL's typed objects do; `&&` and `||` absorb errors as CEL specifies.
// Kubernetes' list and string extensions used in admission match conditions are here too (`substring`,
// `charAt`, `find`, `findAll`, and on lists `indexOf`, `lastIndexOf`, `isSorted`, `sum`, `min`, `max`), and
// host objects (opaque types with methods, such as Kubernetes' `authorizer`), whose answers may need to be
// awaited: a host method throws CelPending, and `evaluateAsync` waits for it and evaluates again.

export type CelType =
  | { kind: 'string' } | { kind: 'int' } | { kind: 'double' } | { kind: 'bool' } | { kind: 'null' } | { kind: 'dyn' }
  | { kind: 'list'; elem: CelType }
  | { kind: 'map'; value: CelType }
  | { kind: 'message'; name: string; fields: Record<string, CelType> }
  | { kind: 'opaque'; name: string; fields: Record<string, CelType>; methods: Record<string, CelType> };

export const T = {
  string: { kind: 'string' } as CelType,
  int: { kind: 'int' } as CelType,
  double: { kind: 'double' } as CelType,
  bool: { kind: 'bool' } as CelType,
  null: { kind: 'null' } as CelType,
  dyn: { kind: 'dyn' } as CelType,
  list: (elem: CelType): CelType => ({ kind: 'list', elem }),
  map: (value: CelType): CelType => ({ kind: 'map', value }),
  message: (name: string, fields: Record<string, CelType>): CelType => ({ kind: 'message', name, fields }),
  /** A host object type: `methods` name each method's result type (filled in later for recursive types). */
  opaque: (name: string, fields: Record<string, CelType> = {}, methods: Record<string, CelType> = {}) => ({ kind: 'opaque', name, fields, methods }) as Extract<CelType, { kind: 'opaque' }>,
};

/** A value of an opaque type, provided by the host: fields and methods answered by the host's code. */
export interface CelHost {
  readonly celTypeName: string;
  /** A field (`authorizer.requestResource`); throws an Error for an evaluation error. */
  celField?(name: string): unknown;
  /** A method call; throws an Error for an evaluation error, or CelPending while the answer is on its way. */
  celCall(method: string, args: unknown[]): unknown;
}

/** Thrown by a host method whose answer is not known yet: evaluateAsync waits for `until` and starts over. */
export class CelPending extends Error {
  readonly until: Promise<unknown>;
  constructor(until: Promise<unknown>) {
    super('evaluation is waiting for a host answer');
    this.until = until;
  }
}

function isHost(v: unknown): v is CelHost {
  return typeof v === 'object' && v !== null && typeof (v as CelHost).celCall === 'function';
}

/** A host's answer as a CEL value (a thrown Error becomes an evaluation error; CelPending goes on up). */
function hostAnswer(answer: () => unknown): Value {
  try {
    return toValue(answer(), { kind: 'dyn' });
  } catch (err) {
    if (err instanceof CelPending) throw err;
    return new CelError((err as Error).message);
  }
}

export class CelCompileError extends Error {}

/** A runtime error, carried as a value so that `&&` and `||` can absorb it. */
class CelError {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** A typed object: fields not set read as their zero value. */
class Message {
  readonly type: Extract<CelType, { kind: 'message' }>;
  readonly value: Record<string, unknown>;
  constructor(type: Extract<CelType, { kind: 'message' }>, value: Record<string, unknown>) {
    this.type = type;
    this.value = value;
  }
}

type Value = string | number | boolean | null | Value[] | Map<string, Value> | Message | CelError | IntValue | CelHost;

/** CEL keeps int and double apart; ints are boxed so `1 == 1.0` can be told from `1 == 1`. */
class IntValue {
  readonly n: number;
  constructor(n: number) {
    this.n = n;
  }
}

// ---- lexer ----

type Token =
  | { t: 'num'; v: number; int: boolean; pos: number }
  | { t: 'str'; v: string; pos: number }
  | { t: 'id'; v: string; pos: number }
  | { t: 'op'; v: string; pos: number }
  | { t: 'eof'; pos: number };

const OPS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const fail = (msg: string, at: number): never => { throw new CelCompileError(syntaxError(src, at, msg)); };
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && src[i + 1] === '/') { while (i < src.length && src[i] !== '\n') i++; continue; }
    const start = i;
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^(0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)(u|U)?/.exec(src.slice(i))!;
      const text = m[1];
      const isInt = !/[.eE]/.test(text) || text.startsWith('0x');
      out.push({ t: 'num', v: Number(text), int: isInt, pos: start });
      i += m[0].length;
      continue;
    }
    if (c === '"' || c === "'" || ((c === 'r' || c === 'R') && (src[i + 1] === '"' || src[i + 1] === "'"))) {
      const raw = c === 'r' || c === 'R';
      if (raw) i++;
      const q = src[i];
      const triple = src.slice(i, i + 3) === q.repeat(3);
      const close = triple ? q.repeat(3) : q;
      i += close.length;
      let v = '';
      for (;;) {
        if (i >= src.length) fail('unterminated string', start);
        if (src.startsWith(close, i)) { i += close.length; break; }
        const ch = src[i];
        if (!triple && ch === '\n') fail('unterminated string', start);
        if (ch === '\\' && !raw) {
          const e = src[i + 1];
          const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'", '`': '`', a: '\x07', b: '\b', f: '\f', v: '\v', '?': '?' };
          if (e in simple) { v += simple[e]; i += 2; continue; }
          if (e === 'u' || e === 'x' || e === 'U') {
            const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
            const hex = src.slice(i + 2, i + 2 + len);
            if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) fail('invalid escape sequence', i);
            v += String.fromCodePoint(parseInt(hex, 16));
            i += 2 + len;
            continue;
          }
          fail('invalid escape sequence', i);
        }
        v += ch;
        i++;
      }
      out.push({ t: 'str', v, pos: start });
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i))!;
      out.push({ t: 'id', v: m[0], pos: start });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) fail(`token recognition error at: '${c}'`, i);
    out.push({ t: 'op', v: op!, pos: start });
    i += op!.length;
  }
  out.push({ t: 'eof', pos: src.length });
  return out;
}

function syntaxError(src: string, pos: number, msg: string): string {
  // CEL reports 1-based line and 0-based column: `ERROR: <input>:1:5: Syntax error: ...`.
  const before = src.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - (before.lastIndexOf('\n') + 1);
  return `ERROR: <input>:${line}:${column}: Syntax error: ${msg}`;
}

// ---- parser ----

type Node =
  | { n: 'lit'; v: Value; pos: number }
  | { n: 'ident'; name: string; pos: number }
  | { n: 'select'; target: Node; field: string; pos: number }
  | { n: 'index'; target: Node; index: Node; pos: number }
  | { n: 'call'; fn: string; target?: Node; args: Node[]; pos: number }
  | { n: 'list'; items: Node[]; pos: number }
  | { n: 'map'; entries: [Node, Node][]; pos: number }
  | { n: 'unary'; op: string; arg: Node; pos: number }
  | { n: 'binary'; op: string; left: Node; right: Node; pos: number }
  | { n: 'cond'; test: Node; then: Node; else: Node; pos: number }
  | { n: 'has'; target: Node; field: string; pos: number }
  | { n: 'comprehension'; macro: string; range: Node; variable: string; body: Node; transform?: Node; pos: number };

const RESERVED = new Set(['as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

class Parser {
  private readonly toks: Token[];
  private readonly src: string;
  private i = 0;
  constructor(src: string) {
    this.src = src;
    this.toks = lex(src);
  }
  private peek(): Token { return this.toks[this.i]; }
  private isOp(v: string): boolean { const t = this.peek(); return t.t === 'op' && t.v === v; }
  private fail(msg: string, pos = this.peek().pos): never { throw new CelCompileError(syntaxError(this.src, pos, msg)); }
  private expectOp(v: string): void {
    if (!this.isOp(v)) this.fail(`mismatched input '${describe(this.peek())}' expecting '${v}'`);
    this.i++;
  }

  parse(): Node {
    if (this.peek().t === 'eof') this.fail("mismatched input '<EOF>' expecting an expression");
    const e = this.expr();
    if (this.peek().t !== 'eof') this.fail(`extraneous input '${describe(this.peek())}'`);
    return e;
  }

  private expr(): Node {
    const test = this.or();
    if (!this.isOp('?')) return test;
    const pos = this.peek().pos;
    this.i++;
    const then = this.or();
    this.expectOp(':');
    return { n: 'cond', test, then, else: this.expr(), pos };
  }
  private or(): Node {
    let left = this.and();
    while (this.isOp('||')) { const pos = this.peek().pos; this.i++; left = { n: 'binary', op: '||', left, right: this.and(), pos }; }
    return left;
  }
  private and(): Node {
    let left = this.relation();
    while (this.isOp('&&')) { const pos = this.peek().pos; this.i++; left = { n: 'binary', op: '&&', left, right: this.relation(), pos }; }
    return left;
  }
  private relation(): Node {
    let left = this.addition();
    for (;;) {
      const t = this.peek();
      const op = t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v) ? t.v : t.t === 'id' && t.v === 'in' ? 'in' : '';
      if (!op) return left;
      this.i++;
      left = { n: 'binary', op, left, right: this.addition(), pos: t.pos };
    }
  }
  private addition(): Node {
    let left = this.multiplication();
    while (this.isOp('+') || this.isOp('-')) { const t = this.toks[this.i++] as { v: string; pos: number }; left = { n: 'binary', op: t.v, left, right: this.multiplication(), pos: t.pos }; }
    return left;
  }
  private multiplication(): Node {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) { const t = this.toks[this.i++] as { v: string; pos: number }; left = { n: 'binary', op: t.v, left, right: this.unary(), pos: t.pos }; }
    return left;
  }
  private unary(): Node {
    if (this.isOp('!') || this.isOp('-')) {
      const t = this.toks[this.i++] as { v: string; pos: number };
      const arg = this.unary();
      if (t.v === '-' && arg.n === 'lit' && (typeof arg.v === 'number' || arg.v instanceof IntValue)) {
        return { n: 'lit', v: arg.v instanceof IntValue ? new IntValue(-arg.v.n) : -arg.v, pos: t.pos };
      }
      return { n: 'unary', op: t.v, arg, pos: t.pos };
    }
    return this.member();
  }
  private member(): Node {
    let e = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        this.i++;
        const id = this.peek();
        if (id.t !== 'id') this.fail(`no viable alternative at input '.${describe(id)}'`);
        this.i++;
        if (this.isOp('(')) {
          const args = this.args(')');
          e = this.macroOrCall(id.v, e, args, id.pos);
        } else {
          e = { n: 'select', target: e, field: id.v, pos: id.pos };
        }
      } else if (this.isOp('[')) {
        const pos = this.peek().pos;
        this.i++;
        const index = this.expr();
        this.expectOp(']');
        e = { n: 'index', target: e, index, pos };
      } else {
        return e;
      }
    }
  }
  private args(close: string): Node[] {
    this.i++; // the opening bracket
    const out: Node[] = [];
    if (this.isOp(close)) { this.i++; return out; }
    for (;;) {
      out.push(this.expr());
      if (this.isOp(',')) { this.i++; if (this.isOp(close)) { this.i++; return out; } continue; }
      this.expectOp(close);
      return out;
    }
  }
  private macroOrCall(fn: string, target: Node | undefined, args: Node[], pos: number): Node {
    if (target && ['all', 'exists', 'exists_one', 'map', 'filter'].includes(fn)) {
      if (args.length !== 2 && !(fn === 'map' && args.length === 3)) this.fail(`${fn}() expects 2 arguments`, pos);
      const v = args[0];
      if (v.n !== 'ident') this.fail('argument is not an identifier', v.pos);
      if (fn === 'map' && args.length === 3) {
        return { n: 'comprehension', macro: 'map_filter', range: target, variable: v.name, body: args[1], transform: args[2], pos };
      }
      return { n: 'comprehension', macro: fn, range: target, variable: v.name, body: args[1], pos };
    }
    if (!target && fn === 'has') {
      const a = args[0];
      if (args.length !== 1 || !a || a.n !== 'select') this.fail('invalid argument to has() macro', pos);
      return { n: 'has', target: a.target, field: a.field, pos };
    }
    return { n: 'call', fn, target, args, pos };
  }
  private primary(): Node {
    const t = this.peek();
    if (t.t === 'num') { this.i++; return { n: 'lit', v: t.int ? new IntValue(t.v) : t.v, pos: t.pos }; }
    if (t.t === 'str') { this.i++; return { n: 'lit', v: t.v, pos: t.pos }; }
    if (t.t === 'id') {
      this.i++;
      if (t.v === 'true' || t.v === 'false') return { n: 'lit', v: t.v === 'true', pos: t.pos };
      if (t.v === 'null') return { n: 'lit', v: null, pos: t.pos };
      if (RESERVED.has(t.v) || t.v === 'in') this.fail(`reserved identifier: ${t.v}`, t.pos);
      if (this.isOp('(')) return this.macroOrCall(t.v, undefined, this.args(')'), t.pos);
      return { n: 'ident', name: t.v, pos: t.pos };
    }
    if (this.isOp('(')) { this.i++; const e = this.expr(); this.expectOp(')'); return e; }
    if (this.isOp('[')) return { n: 'list', items: this.args(']'), pos: t.pos };
    if (this.isOp('{')) {
      this.i++;
      const entries: [Node, Node][] = [];
      while (!this.isOp('}')) {
        const k = this.expr();
        this.expectOp(':');
        entries.push([k, this.expr()]);
        if (this.isOp(',')) this.i++; else break;
      }
      this.expectOp('}');
      return { n: 'map', entries, pos: t.pos };
    }
    this.fail(t.t === 'eof' ? "mismatched input '<EOF>' expecting an expression" : `extraneous input '${describe(t)}'`);
  }
}

function describe(t: Token): string {
  if (t.t === 'eof') return '<EOF>';
  if (t.t === 'str') return JSON.stringify(t.v);
  return String(t.v);
}

// ---- type check (light: enough to name unknown variables and fields and to insist on a bool) ----

function checkTypes(node: Node, vars: Record<string, CelType>, src: string): CelType {
  const err = (pos: number, msg: string): never => {
    const before = src.slice(0, pos);
    throw new CelCompileError(`ERROR: <input>:${before.split('\n').length}:${pos - (before.lastIndexOf('\n') + 1)}: ${msg}`);
  };
  const visit = (n: Node, scope: Record<string, CelType>): CelType => {
    switch (n.n) {
      case 'lit':
        return n.v === null ? T.null : typeof n.v === 'string' ? T.string : typeof n.v === 'boolean' ? T.bool : n.v instanceof IntValue ? T.int : T.double;
      case 'ident':
        if (!(n.name in scope)) err(n.pos, `undeclared reference to '${n.name}' (in container '')`);
        return scope[n.name];
      case 'select': {
        const t = visit(n.target, scope);
        if (t.kind === 'message') {
          if (!(n.field in t.fields)) err(n.pos, `undefined field '${n.field}'`);
          return t.fields[n.field];
        }
        if (t.kind === 'map') return t.value;
        if (t.kind === 'opaque') {
          if (!(n.field in t.fields)) err(n.pos, `undefined field '${n.field}'`);
          return t.fields[n.field];
        }
        return T.dyn;
      }
      case 'has': {
        const t = visit(n.target, scope);
        if (t.kind === 'message' && !(n.field in t.fields)) err(n.pos, `undefined field '${n.field}'`);
        return T.bool;
      }
      case 'index': {
        const t = visit(n.target, scope);
        visit(n.index, scope);
        return t.kind === 'list' ? t.elem : t.kind === 'map' ? t.value : T.dyn;
      }
      case 'list': {
        const items = n.items.map((i) => visit(i, scope));
        return T.list(items.length && items.every((i) => i.kind === items[0].kind) ? items[0] : T.dyn);
      }
      case 'map':
        for (const [k, v] of n.entries) { visit(k, scope); visit(v, scope); }
        return T.map(T.dyn);
      case 'unary': {
        const t = visit(n.arg, scope);
        return n.op === '!' ? T.bool : t;
      }
      case 'binary': {
        const l = visit(n.left, scope);
        const r = visit(n.right, scope);
        if (['&&', '||', '==', '!=', '<', '<=', '>', '>=', 'in'].includes(n.op)) return T.bool;
        if (n.op === '+' && l.kind === 'string') return T.string;
        if (n.op === '+' && l.kind === 'list') return l;
        return l.kind === 'dyn' ? r : l;
      }
      case 'cond': {
        visit(n.test, scope);
        const a = visit(n.then, scope);
        const b = visit(n.else, scope);
        return a.kind === b.kind ? a : T.dyn;
      }
      case 'comprehension': {
        const range = visit(n.range, scope);
        const elem = range.kind === 'list' ? range.elem : range.kind === 'map' ? T.string : T.dyn;
        const inner = { ...scope, [n.variable]: elem };
        const body = visit(n.body, inner);
        if (n.transform) visit(n.transform, inner);
        if (n.macro === 'map') return T.list(body);
        if (n.macro === 'map_filter') return T.list(T.dyn);
        if (n.macro === 'filter') return range.kind === 'list' ? range : T.list(T.dyn);
        return T.bool;
      }
      case 'call': {
        const target = n.target ? visit(n.target, scope) : undefined;
        const args = n.args.map((a) => visit(a, scope));
        if (target?.kind === 'opaque') {
          if (!(n.fn in target.methods)) err(n.pos, `found no matching overload for '${n.fn}' applied to '${target.name}.(${args.map(typeLabel).join(', ')})'`);
          return target.methods[n.fn];
        }
        if (!n.target && !FUNCTIONS.has(n.fn)) err(n.pos, `undeclared reference to '${n.fn}' (in container '')`);
        if (n.target && !METHODS.has(n.fn)) err(n.pos, `undeclared reference to '${n.fn}' (in container '')`);
        if (target?.kind === 'list' && LIST_RETURNS[n.fn]) return LIST_RETURNS[n.fn]!(target.elem);
        return RETURNS[n.fn] ?? T.dyn;
      }
    }
  };
  return visit(node, vars);
}

const FUNCTIONS = new Set(['size', 'string', 'int', 'double', 'bool', 'type', 'dyn']);
const METHODS = new Set([
  'size', 'startsWith', 'endsWith', 'contains', 'matches', 'lowerAscii', 'upperAscii', 'trim', 'split', 'join', 'indexOf', 'lastIndexOf', 'replace',
  'substring', 'charAt', 'find', 'findAll', 'isSorted', 'sum', 'min', 'max',
]);
const RETURNS: Record<string, CelType> = {
  size: T.int, string: T.string, int: T.int, double: T.double, bool: T.bool, startsWith: T.bool, endsWith: T.bool, contains: T.bool,
  matches: T.bool, lowerAscii: T.string, upperAscii: T.string, trim: T.string, split: T.list(T.string), join: T.string, indexOf: T.int, lastIndexOf: T.int, replace: T.string,
  substring: T.string, charAt: T.string, find: T.string, findAll: T.list(T.string), isSorted: T.bool,
};
/** Methods of lists whose result is typed by the element type. */
const LIST_RETURNS: Record<string, (elem: CelType) => CelType> = { sum: (e) => e, min: (e) => e, max: (e) => e };

function typeLabel(t: CelType): string {
  return t.kind === 'message' || t.kind === 'opaque' ? t.name : t.kind === 'list' ? `list(${typeLabel(t.elem)})` : t.kind === 'map' ? `map(string, ${typeLabel(t.value)})` : t.kind;
}

// ---- evaluation ----

function typeName(v: Value): string {
  if (v === null) return 'null_type';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'double';
  if (v instanceof IntValue) return 'int';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'map';
  if (v instanceof Message) return v.type.name;
  if (isHost(v)) return v.celTypeName;
  return 'error';
}

function zero(t: CelType): Value {
  switch (t.kind) {
    case 'string': return '';
    case 'int': return new IntValue(0);
    case 'double': return 0;
    case 'bool': return false;
    case 'list': return [];
    case 'map': return new Map();
    case 'message': return new Message(t, {});
    default: return null;
  }
}

/** Plain data into CEL values, typed by `t` where the shape is known. */
function toValue(data: unknown, t: CelType): Value {
  if (data === undefined || data === null) return zero(t);
  if (isHost(data)) return data;
  if (t.kind === 'message' && typeof data === 'object' && !Array.isArray(data)) return new Message(t, data as Record<string, unknown>);
  if (Array.isArray(data)) return data.map((d) => toValue(d, t.kind === 'list' ? t.elem : T.dyn));
  if (typeof data === 'object') {
    const m = new Map<string, Value>();
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) m.set(k, toValue(v, t.kind === 'map' ? t.value : T.dyn));
    return m;
  }
  if (typeof data === 'number') return t.kind === 'double' || !Number.isInteger(data) ? data : new IntValue(data);
  return data as Value;
}

/** Heterogeneous equality: numbers compare by value across int and double; other mixed types are unequal. */
function equals(a: Value, b: Value): boolean | CelError {
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeName(a) !== typeName(b)) return false;
  if (Array.isArray(a)) {
    const bl = b as Value[];
    if (a.length !== bl.length) return false;
    for (let i = 0; i < a.length; i++) { const e = equals(a[i], bl[i]); if (e !== true) return e; }
    return true;
  }
  if (a instanceof Map) {
    const bm = b as Map<string, Value>;
    if (a.size !== bm.size) return false;
    for (const [k, v] of a) { if (!bm.has(k)) return false; const e = equals(v, bm.get(k)!); if (e !== true) return e; }
    return true;
  }
  if (a instanceof Message) return JSON.stringify(a.value) === JSON.stringify((b as Message).value);
  return a === b;
}

function num(v: Value): number | undefined {
  return v instanceof IntValue ? v.n : typeof v === 'number' ? v : undefined;
}

function selectField(target: Value, field: string): Value {
  if (target instanceof CelError) return target;
  if (target instanceof Message) {
    const t = target.type.fields[field];
    if (!t) return new CelError(`no such field: ${field}`);
    return toValue(target.value[field], t);
  }
  if (target instanceof Map) return target.has(field) ? target.get(field)! : new CelError(`no such key: ${field}`);
  if (isHost(target)) return target.celField ? hostAnswer(() => target.celField!(field)) : new CelError(`no such field: ${field}`);
  return new CelError(`type '${typeName(target)}' does not support field selection`);
}

function hasField(target: Value, field: string): Value {
  if (target instanceof CelError) return target;
  if (target instanceof Message) {
    const v = target.value[field];
    if (v === undefined || v === null) return false;
    const t = target.type.fields[field];
    if (!t) return new CelError(`no such field: ${field}`);
    // Scalars that hold their zero value count as unset, as for proto3 fields.
    if (t.kind === 'string') return v !== '';
    if (t.kind === 'bool') return v !== false;
    if (t.kind === 'int' || t.kind === 'double') return v !== 0;
    if (t.kind === 'list') return Array.isArray(v) && v.length > 0;
    if (t.kind === 'map') return typeof v === 'object' && Object.keys(v as object).length > 0;
    return true;
  }
  if (target instanceof Map) return target.has(field);
  return new CelError(`invalid type for field selection.`);
}

function size(v: Value): Value {
  if (typeof v === 'string') return new IntValue([...v].length);
  if (Array.isArray(v)) return new IntValue(v.length);
  if (v instanceof Map) return new IntValue(v.size);
  if (v instanceof CelError) return v;
  return new CelError(`no such overload: size(${typeName(v)})`);
}

const STRING_METHODS: Record<string, (s: string, args: Value[]) => Value> = {
  startsWith: (s, [a]) => (typeof a === 'string' ? s.startsWith(a) : overload('startsWith', a)),
  endsWith: (s, [a]) => (typeof a === 'string' ? s.endsWith(a) : overload('endsWith', a)),
  contains: (s, [a]) => (typeof a === 'string' ? s.includes(a) : overload('contains', a)),
  matches: (s, [a]) => {
    if (typeof a !== 'string') return overload('matches', a);
    try { return new RegExp(a, 'u').test(s); } catch (e) { return new CelError(`invalid regular expression: ${(e as Error).message}`); }
  },
  lowerAscii: (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase()),
  upperAscii: (s) => s.replace(/[a-z]/g, (c) => c.toUpperCase()),
  trim: (s) => s.trim(),
  split: (s, [a]) => (typeof a === 'string' ? s.split(a) : overload('split', a)),
  indexOf: (s, [a]) => (typeof a === 'string' ? new IntValue(s.indexOf(a)) : overload('indexOf', a)),
  lastIndexOf: (s, [a]) => (typeof a === 'string' ? new IntValue(s.lastIndexOf(a)) : overload('lastIndexOf', a)),
  replace: (s, [a, b]) => (typeof a === 'string' && typeof b === 'string' ? s.split(a).join(b) : overload('replace', a)),
  substring: (s, [a, b]) => {
    const chars = [...s];
    const start = num(a);
    const end = b === undefined ? chars.length : num(b);
    if (start === undefined || end === undefined) return overload('substring', a);
    if (start < 0 || start > chars.length) return new CelError(`index out of range: ${start}`);
    if (end < 0 || end > chars.length) return new CelError(`index out of range: ${end}`);
    if (start > end) return new CelError(`invalid substring range. start: ${start}, end: ${end}`);
    return chars.slice(start, end).join('');
  },
  charAt: (s, [a]) => {
    const chars = [...s];
    const i = num(a);
    if (i === undefined) return overload('charAt', a);
    if (i < 0 || i > chars.length) return new CelError(`index out of range: ${i}`);
    return chars[i] ?? '';
  },
  find: (s, [a]) => {
    if (typeof a !== 'string') return overload('find', a);
    try { return new RegExp(a, 'u').exec(s)?.[0] ?? ''; } catch (e) { return new CelError(`invalid regular expression: ${(e as Error).message}`); }
  },
  findAll: (s, [a, b]) => {
    if (typeof a !== 'string') return overload('findAll', a);
    const limit = b === undefined ? -1 : num(b) ?? -1;
    try {
      const all = [...s.matchAll(new RegExp(a, 'gu'))].map((m) => m[0]);
      return limit < 0 ? all : all.slice(0, limit);
    } catch (e) { return new CelError(`invalid regular expression: ${(e as Error).message}`); }
  },
};

/** Ordering of two comparable values (numbers, strings, bools), or an error for others. */
function compare(a: Value, b: Value): number | CelError {
  const na = num(a), nb = num(b);
  if (na !== undefined && nb !== undefined) return na < nb ? -1 : na > nb ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return new CelError(`no such overload: ${typeName(a)} < ${typeName(b)}`);
}

/** Kubernetes' list library: indexOf, lastIndexOf, isSorted, sum, min, max. */
const LIST_METHODS: Record<string, (l: Value[], args: Value[]) => Value> = {
  indexOf: (l, [x]) => { for (let i = 0; i < l.length; i++) if (equals(l[i], x) === true) return new IntValue(i); return new IntValue(-1); },
  lastIndexOf: (l, [x]) => { for (let i = l.length - 1; i >= 0; i--) if (equals(l[i], x) === true) return new IntValue(i); return new IntValue(-1); },
  isSorted: (l) => {
    for (let i = 1; i < l.length; i++) { const c = compare(l[i - 1], l[i]); if (c instanceof CelError) return c; if (c > 0) return false; }
    return true;
  },
  sum: (l) => {
    let total: Value = l.length && typeof l[0] === 'number' ? 0 : new IntValue(0);
    for (const x of l) {
      if (x instanceof IntValue && total instanceof IntValue) total = new IntValue(total.n + x.n);
      else if (typeof x === 'number' && typeof total === 'number') total = total + x;
      else return overload('sum', x);
    }
    return total;
  },
  min: (l) => extreme(l, -1),
  max: (l) => extreme(l, 1),
};

function extreme(l: Value[], sign: number): Value {
  if (!l.length) return new CelError(sign < 0 ? 'min(list) argument must not be empty' : 'max(list) argument must not be empty');
  let best = l[0];
  for (const x of l.slice(1)) { const c = compare(x, best); if (c instanceof CelError) return c; if (c * sign > 0) best = x; }
  return best;
}

function overload(fn: string, v: Value): CelError {
  return new CelError(`no such overload: ${fn}(${typeName(v)})`);
}

class Evaluator {
  eval(n: Node, scope: Map<string, Value>): Value {
    switch (n.n) {
      case 'lit': return n.v;
      case 'ident': return scope.has(n.name) ? scope.get(n.name)! : new CelError(`no such attribute: ${n.name}`);
      case 'select': return selectField(this.eval(n.target, scope), n.field);
      case 'has': return hasField(this.eval(n.target, scope), n.field);
      case 'index': {
        const t = this.eval(n.target, scope);
        const i = this.eval(n.index, scope);
        if (t instanceof CelError) return t;
        if (i instanceof CelError) return i;
        if (Array.isArray(t)) {
          const k = num(i);
          if (k === undefined || !Number.isInteger(k)) return new CelError(`invalid list index: ${typeName(i)}`);
          return k >= 0 && k < t.length ? t[k] : new CelError(`index out of bounds: ${k}`);
        }
        if (t instanceof Map) return typeof i === 'string' && t.has(i) ? t.get(i)! : new CelError(`no such key: ${String(i)}`);
        if (t instanceof Message && typeof i === 'string') return selectField(t, i);
        return new CelError(`no such overload: ${typeName(t)}[${typeName(i)}]`);
      }
      case 'list': {
        const out: Value[] = [];
        for (const item of n.items) { const v = this.eval(item, scope); if (v instanceof CelError) return v; out.push(v); }
        return out;
      }
      case 'map': {
        const m = new Map<string, Value>();
        for (const [kn, vn] of n.entries) {
          const k = this.eval(kn, scope);
          const v = this.eval(vn, scope);
          if (k instanceof CelError) return k;
          if (v instanceof CelError) return v;
          m.set(String(k instanceof IntValue ? k.n : k), v);
        }
        return m;
      }
      case 'unary': {
        const v = this.eval(n.arg, scope);
        if (v instanceof CelError) return v;
        if (n.op === '!') return typeof v === 'boolean' ? !v : overload('!_', v);
        if (v instanceof IntValue) return new IntValue(-v.n);
        return typeof v === 'number' ? -v : overload('-_', v);
      }
      case 'cond': {
        const t = this.eval(n.test, scope);
        if (t instanceof CelError) return t;
        if (typeof t !== 'boolean') return overload('_?_:_', t);
        return this.eval(t ? n.then : n.else, scope);
      }
      case 'binary': return this.binary(n, scope);
      case 'comprehension': return this.comprehension(n, scope);
      case 'call': return this.call(n, scope);
    }
  }

  private binary(n: Extract<Node, { n: 'binary' }>, scope: Map<string, Value>): Value {
    if (n.op === '&&' || n.op === '||') {
      // Commutative short-circuit: a decisive side wins over an error on the other.
      const decisive = n.op === '||';
      const l = this.eval(n.left, scope);
      if (l === decisive) return decisive;
      const r = this.eval(n.right, scope);
      if (r === decisive) return decisive;
      if (l instanceof CelError) return l;
      if (r instanceof CelError) return r;
      if (typeof l !== 'boolean') return overload(n.op, l);
      if (typeof r !== 'boolean') return overload(n.op, r);
      return !decisive;
    }
    const l = this.eval(n.left, scope);
    if (l instanceof CelError) return l;
    const r = this.eval(n.right, scope);
    if (r instanceof CelError) return r;
    switch (n.op) {
      case '==': return equals(l, r);
      case '!=': { const e = equals(l, r); return e instanceof CelError ? e : !e; }
      case 'in': {
        if (Array.isArray(r)) { for (const x of r) { const e = equals(l, x); if (e === true) return true; } return false; }
        if (r instanceof Map) return typeof l === 'string' && r.has(l);
        return new CelError(`no such overload: ${typeName(l)} in ${typeName(r)}`);
      }
      case '<': case '<=': case '>': case '>=': {
        const a = typeof l === 'string' && typeof r === 'string' ? l : num(l);
        const b = typeof l === 'string' && typeof r === 'string' ? r : num(r);
        if (a === undefined || b === undefined) return new CelError(`no such overload: ${typeName(l)} ${n.op} ${typeName(r)}`);
        return n.op === '<' ? a < b : n.op === '<=' ? a <= b : n.op === '>' ? a > b : a >= b;
      }
      case '+':
        if (typeof l === 'string' && typeof r === 'string') return l + r;
        if (Array.isArray(l) && Array.isArray(r)) return [...l, ...r];
        return this.arith(n.op, l, r);
      default:
        return this.arith(n.op, l, r);
    }
  }

  private arith(op: string, l: Value, r: Value): Value {
    if (l instanceof IntValue && r instanceof IntValue) {
      if ((op === '/' || op === '%') && r.n === 0) return new CelError(op === '/' ? 'division by zero' : 'modulus by zero');
      const v = op === '+' ? l.n + r.n : op === '-' ? l.n - r.n : op === '*' ? l.n * r.n : op === '/' ? Math.trunc(l.n / r.n) : l.n % r.n;
      return new IntValue(v);
    }
    if (typeof l === 'number' && typeof r === 'number' && op !== '%') {
      return op === '+' ? l + r : op === '-' ? l - r : op === '*' ? l * r : l / r;
    }
    return new CelError(`no such overload: ${typeName(l)} ${op} ${typeName(r)}`);
  }

  private comprehension(n: Extract<Node, { n: 'comprehension' }>, scope: Map<string, Value>): Value {
    const range = this.eval(n.range, scope);
    if (range instanceof CelError) return range;
    let items: Value[];
    if (Array.isArray(range)) items = range;
    else if (range instanceof Map) items = [...range.keys()];
    else return new CelError(`expression of type '${typeName(range)}' cannot be range of a comprehension`);
    const inner = new Map(scope);
    const run = (item: Value, body: Node) => { inner.set(n.variable, item); return this.eval(body, inner); };
    switch (n.macro) {
      case 'all': case 'exists': {
        const decisive = n.macro === 'exists';
        let firstError: CelError | undefined;
        for (const item of items) {
          const v = run(item, n.body);
          if (v === decisive) return decisive;
          if (v instanceof CelError) firstError ??= v;
          else if (typeof v !== 'boolean') firstError ??= overload(n.macro, v);
        }
        return firstError ?? !decisive;
      }
      case 'exists_one': {
        let count = 0;
        for (const item of items) {
          const v = run(item, n.body);
          if (v instanceof CelError) return v;
          if (v === true) count++;
        }
        return count === 1;
      }
      case 'map': {
        const out: Value[] = [];
        for (const item of items) { const v = run(item, n.body); if (v instanceof CelError) return v; out.push(v); }
        return out;
      }
      case 'map_filter': {
        const out: Value[] = [];
        for (const item of items) {
          const keep = run(item, n.body);
          if (keep instanceof CelError) return keep;
          if (keep === true) { const v = run(item, n.transform!); if (v instanceof CelError) return v; out.push(v); }
        }
        return out;
      }
      default: {
        const out: Value[] = [];
        for (const item of items) {
          const keep = run(item, n.body);
          if (keep instanceof CelError) return keep;
          if (keep === true) out.push(item);
        }
        return out;
      }
    }
  }

  private call(n: Extract<Node, { n: 'call' }>, scope: Map<string, Value>): Value {
    const args: Value[] = [];
    for (const a of n.args) { const v = this.eval(a, scope); if (v instanceof CelError) return v; args.push(v); }
    if (n.target) {
      const t = this.eval(n.target, scope);
      if (t instanceof CelError) return t;
      if (isHost(t)) return hostAnswer(() => t.celCall(n.fn, args.map(fromValue)));
      if (n.fn === 'size') return size(t);
      if (Array.isArray(t) && LIST_METHODS[n.fn]) return LIST_METHODS[n.fn]!(t, args);
      if (n.fn === 'join' && Array.isArray(t)) {
        if (!t.every((x) => typeof x === 'string')) return new CelError('join: list must hold strings');
        const sep = args[0] ?? '';
        return typeof sep === 'string' ? t.join(sep) : overload('join', sep);
      }
      const m = STRING_METHODS[n.fn];
      if (m && typeof t === 'string') return m(t, args);
      return new CelError(`no such overload: ${typeName(t)}.${n.fn}`);
    }
    const [a] = args;
    switch (n.fn) {
      case 'size': return size(a);
      case 'string':
        if (typeof a === 'string') return a;
        if (a instanceof IntValue) return String(a.n);
        if (typeof a === 'number' || typeof a === 'boolean') return String(a);
        return overload('string', a);
      case 'int':
        if (a instanceof IntValue) return a;
        if (typeof a === 'number') return new IntValue(Math.trunc(a));
        if (typeof a === 'string' && /^[+-]?\d+$/.test(a)) return new IntValue(Number(a));
        return new CelError(`cannot convert ${typeName(a)} to int`);
      case 'double':
        if (typeof a === 'number') return a;
        if (a instanceof IntValue) return a.n;
        if (typeof a === 'string' && a.trim() !== '' && !Number.isNaN(Number(a))) return Number(a);
        return new CelError(`cannot convert ${typeName(a)} to double`);
      case 'bool':
        if (typeof a === 'boolean') return a;
        if (a === 'true' || a === 'false') return a === 'true';
        return new CelError(`cannot convert ${typeName(a)} to bool`);
      case 'type': return typeName(a);
      case 'dyn': return a;
      default: return new CelError(`unknown function: ${n.fn}`);
    }
  }
}

export interface CelProgram {
  readonly expression: string;
  /** The expression's checked type (`dyn` when only evaluation can tell). */
  readonly type: CelType;
  /** The result, or a thrown Error for an evaluation error (a missing key, a bad overload); CelPending when
   *  a host object's answer is not known yet. */
  evaluate(vars: Record<string, unknown>): unknown;
  /** As evaluate, waiting for host answers (each wait is followed by a new evaluation). */
  evaluateAsync(vars: Record<string, unknown>): Promise<unknown>;
}

/** Host answers one evaluation may wait for before giving up (each authorizer check is one). */
const MAX_HOST_WAITS = 100;

/** Parses and checks an expression over the declared variables; it must yield a bool when `wantBool`. */
export function compileCel(expression: string, vars: Record<string, CelType>, opts: { wantBool?: boolean } = {}): CelProgram {
  const ast = new Parser(expression).parse();
  const type = checkTypes(ast, vars, expression);
  if (opts.wantBool && type.kind !== 'bool' && type.kind !== 'dyn') {
    throw new CelCompileError(`must evaluate to bool but got ${type.kind === 'message' ? type.name : type.kind}`);
  }
  const evaluator = new Evaluator();
  return {
    expression,
    type,
    evaluate(input) {
      const scope = new Map<string, Value>();
      for (const [name, t] of Object.entries(vars)) scope.set(name, toValue(input[name], t));
      const v = evaluator.eval(ast, scope);
      if (v instanceof CelError) throw new Error(v.message);
      return fromValue(v);
    },
    async evaluateAsync(input) {
      for (let waits = 0; ; waits++) {
        try {
          return this.evaluate(input);
        } catch (err) {
          if (!(err instanceof CelPending) || waits >= MAX_HOST_WAITS) throw err;
          await err.until;
        }
      }
    },
  };
}

function fromValue(v: Value): unknown {
  if (v instanceof IntValue) return v.n;
  if (Array.isArray(v)) return v.map(fromValue);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, fromValue(x)]));
  if (v instanceof Message) return v.value;
  return v;
}
