// Time and MicroTime as Kubernetes decodes them: Go's time.Parse with the RFC 3339 layouts (including its
// leniencies and its exact error texts), then re-encoding in UTC, the way a Go round trip stores them.

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Std = '2006' | '01' | '02' | '15' | '04' | '05' | '.000000' | 'Z07:00';
const TIME_CHUNKS: [string, Std][] = [['', '2006'], ['-', '01'], ['-', '02'], ['T', '15'], [':', '04'], [':', '05'], ['', 'Z07:00']];
const MICRO_CHUNKS: [string, Std][] = [['', '2006'], ['-', '01'], ['-', '02'], ['T', '15'], [':', '04'], [':', '05'], ['', '.000000'], ['', 'Z07:00']];

const CANONICAL_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)Z$/;
const CANONICAL_MICRO = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.\d{6}Z$/;

export type TimeParse = Readonly<{ ok: true; text: string | null } | { ok: false; error: string }>;

/**
 * Parses `value` as Kubernetes' metav1.Time (`micro` false) or MicroTime (`micro` true) does and returns
 * the stored text (UTC, seconds or microseconds), or null for Go's zero time (which encodes as null).
 */
export function parseGoTime(value: string, micro: boolean): TimeParse {
  // Bodies repeat the times of their second (managedFields, creation): the answers for them are kept.
  const recent = micro ? recentMicro : recentTimes;
  const known = recent.get(value);
  if (known) return known;
  const parsed = parse(value, micro);
  if (parsed.ok) {
    if (recent.size >= MAX_RECENT) recent.clear();
    recent.set(value, parsed);
  }
  return parsed;
}

const MAX_RECENT = 64;
const recentTimes = new Map<string, TimeParse>();
const recentMicro = new Map<string, TimeParse>();

function parse(value: string, micro: boolean): TimeParse {
  const canonical = (micro ? CANONICAL_MICRO : CANONICAL_TIME).exec(value);
  if (canonical) {
    const [, y, mo, d, h, mi, s] = canonical;
    const year = +y, month = +mo, day = +d;
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year) && +h < 24 && +mi < 60 && +s < 60) {
      if (year === 1 && month === 1 && day === 1 && +h === 0 && +mi === 0 && +s === 0 && (!micro || value.endsWith('.000000Z'))) return { ok: true, text: null };
      return { ok: true, text: value };
    }
  }
  return parseGeneric(value, micro ? RFC3339_MICRO : RFC3339, micro ? MICRO_CHUNKS : TIME_CHUNKS, micro);
}

function parseGeneric(value: string, layout: string, chunks: [string, Std][], micro: boolean): TimeParse {
  const bad = (rest: string, elem: string): TimeParse => ({ ok: false, error: `parsing time ${goTimeQuote(value)} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(elem)}` });
  const withMessage = (message: string): TimeParse => ({ ok: false, error: `parsing time ${goTimeQuote(value)}${message}` });
  let v = value;
  let year = 0, month = -1, day = -1, hour = 0, minute = 0, second = 0, nanos = 0, offset = 0;
  for (let k = 0; k < chunks.length; k++) {
    const [prefix, std] = chunks[k];
    for (let p = 0; p < prefix.length; p++) {
      if (v.length === 0 || v[0] !== prefix[p]) return bad(v, prefix);
      v = v.slice(1);
    }
    const hold = v;
    let range = '';
    let failed = false;
    switch (std) {
      case '2006': {
        if (v.length < 4) { failed = true; break; }
        const y = atoi(v.slice(0, 4));
        v = v.slice(4);
        if (y === null) failed = true; else year = y;
        break;
      }
      case '01': case '02': case '04': {
        const r = getnum(v, true);
        if (!r) { failed = true; break; }
        v = r.rest;
        if (std === '01') { month = r.n; if (month <= 0 || month > 12) range = 'month'; }
        else if (std === '02') day = r.n;
        else { minute = r.n; if (minute >= 60) range = 'minute'; }
        break;
      }
      case '15': {
        const r = getnum(v, false);
        if (!r) { failed = true; break; }
        v = r.rest;
        hour = r.n;
        if (hour >= 24) range = 'hour';
        break;
      }
      case '05': {
        const r = getnum(v, true);
        if (!r) { failed = true; break; }
        v = r.rest;
        second = r.n;
        if (second >= 60) { range = 'second'; break; }
        // Fractional seconds the layout does not mention are accepted (unless the next element parses them).
        if (!micro && v.length >= 2 && (v[0] === '.' || v[0] === ',') && isDigitAt(v, 1)) {
          let n = 2;
          while (n < v.length && isDigitAt(v, n)) n++;
          const f = nanoseconds(v, n);
          if (typeof f === 'string') range = f; else if (f === null) failed = true; else nanos = f;
          v = v.slice(n);
        }
        break;
      }
      case '.000000': {
        if (v.length < 7) { failed = true; break; }
        const f = nanoseconds(v, 7);
        if (typeof f === 'string') range = f; else if (f === null) failed = true; else nanos = f;
        v = v.slice(7);
        break;
      }
      case 'Z07:00': {
        if (v.length >= 1 && v[0] === 'Z') { v = v.slice(1); offset = 0; break; }
        if (v.length < 6 || v[3] !== ':') { failed = true; break; }
        const sign = v[0];
        const hh = getnum(v.slice(1, 3), true);
        const mm = hh ? getnum(v.slice(4, 6), true) : null;
        v = v.slice(6);
        if (!hh || !mm) { failed = true; break; }
        if (hh.n > 24) range = 'time zone offset hour';
        if (mm.n > 60) range = 'time zone offset minute';
        offset = (hh.n * 60 + mm.n) * 60;
        if (sign === '-') offset = -offset;
        else if (sign !== '+') failed = true;
        break;
      }
    }
    if (range) return withMessage(`: ${range} out of range`);
    if (failed) return bad(hold, std);
  }
  if (v.length) return withMessage(`: extra text: ${goTimeQuote(v)}`);
  if (day < 1 || day > daysIn(month, year)) return withMessage(': day out of range');

  // Seconds since 0001-01-01 in UTC, then back to fields.
  const total = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
  const days = Math.floor(total / 86400);
  const rest = total - days * 86400;
  const [y, m, d] = civilFromDays(days);
  if (y === 1 && m === 1 && d === 1 && rest === 0 && nanos === 0) return { ok: true, text: null };
  const hh = Math.floor(rest / 3600), mi = Math.floor((rest % 3600) / 60), ss = rest % 60;
  let text = `${formatYear(y)}-${pad2(m)}-${pad2(d)}T${pad2(hh)}:${pad2(mi)}:${pad2(ss)}`;
  if (micro) text += '.' + String(Math.floor(nanos / 1000)).padStart(6, '0');
  return { ok: true, text: text + 'Z' };
}

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39;
}

/** Go's getnum: one or two digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | null {
  if (!isDigitAt(s, 0)) return null;
  if (!isDigitAt(s, 1)) {
    if (fixed) return null;
    return { n: s.charCodeAt(0) - 0x30, rest: s.slice(1) };
  }
  return { n: (s.charCodeAt(0) - 0x30) * 10 + (s.charCodeAt(1) - 0x30), rest: s.slice(2) };
}

/** Go's atoi: optional sign, then only digits (an empty digit run counts as 0). */
function atoi(s: string): number | null {
  let neg = false;
  if (s.length && (s[0] === '-' || s[0] === '+')) { neg = s[0] === '-'; s = s.slice(1); }
  let x = 0;
  for (let i = 0; i < s.length; i++) {
    if (!isDigitAt(s, i)) return null;
    x = x * 10 + (s.charCodeAt(i) - 0x30);
  }
  return neg ? -x : x;
}

/** Go's parseNanoseconds over value[0:nbytes] (separator then digits); a string is a range error name. */
function nanoseconds(value: string, nbytes: number): number | string | null {
  if (value[0] !== '.' && value[0] !== ',') return null;
  if (nbytes > 10) { value = value.slice(0, 10); nbytes = 10; }
  const ns = atoi(value.slice(1, nbytes));
  if (ns === null) return null;
  if (ns < 0) return 'fractional second';
  let scaled = ns;
  for (let i = 0; i < 10 - nbytes; i++) scaled *= 10;
  return scaled;
}

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  if (month < 1 || month > 12) return 31;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

// Howard Hinnant's civil calendar algorithms, valid for any year.
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe;
}

function civilFromDays(z: number): [number, number, number] {
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function formatYear(y: number): string {
  return y < 0 ? '-' + String(-y).padStart(4, '0') : String(y).padStart(4, '0');
}

/** Go's time.quote: ASCII kept (with `"` and `\` escaped), everything else as \x bytes of its UTF-8. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c >= 0x80 || c < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += '\\x' + b.toString(16).padStart(2, '0');
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return out + '"';
}
