// A CronJob's schedule as Kubernetes v1.32 reads it: robfig/cron v3.0.1's ParseStandard (five fields
// minute, hour, day of month, month, day of week; the @yearly ... @hourly descriptors and @every <duration>;
// an optional TZ=/CRON_TZ= prefix), with its error texts, and the time zone lookups Go's time.LoadLocation
// answers. Nothing here runs a schedule: no controller does yet.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { goQuote } from '../../machinery/go-format.ts';

export class CronSyntaxError extends Error {}

/** The values a parsed schedule fires at, field by field (an `@every` schedule has `everyMs` instead). */
export interface CronSchedule {
  minutes: number[];
  hours: number[];
  daysOfMonth: number[];
  months: number[];
  daysOfWeek: number[];
  /** The time zone of a TZ=/CRON_TZ= prefix. */
  timeZone?: string;
  everyMs?: number;
}

interface Bounds { min: number; max: number; names?: Record<string, number> }

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DAYS_OF_MONTH: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DAYS_OF_WEEK: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

const range = (from: number, to: number, step = 1): number[] => {
  const out: number[] = [];
  for (let i = from; i <= to; i += step) out.push(i);
  return out;
};

const DESCRIPTORS: Record<string, () => Omit<CronSchedule, 'timeZone'>> = {
  '@yearly': () => ({ minutes: [0], hours: [0], daysOfMonth: [1], months: [1], daysOfWeek: range(0, 6) }),
  '@annually': () => DESCRIPTORS['@yearly']!(),
  '@monthly': () => ({ minutes: [0], hours: [0], daysOfMonth: [1], months: range(1, 12), daysOfWeek: range(0, 6) }),
  '@weekly': () => ({ minutes: [0], hours: [0], daysOfMonth: range(1, 31), months: range(1, 12), daysOfWeek: [0] }),
  '@daily': () => ({ minutes: [0], hours: [0], daysOfMonth: range(1, 31), months: range(1, 12), daysOfWeek: range(0, 6) }),
  '@midnight': () => DESCRIPTORS['@daily']!(),
  '@hourly': () => ({ minutes: [0], hours: range(0, 23), daysOfMonth: range(1, 31), months: range(1, 12), daysOfWeek: range(0, 6) }),
};

// Go's strings.Fields splits on unicode.IsSpace, which is not quite JavaScript's \s (no U+FEFF, but U+0085).
const GO_SPACES = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

function goFields(s: string): string[] {
  return s.split(GO_SPACES).filter((f) => f !== '');
}

const MAX_INT64 = 2n ** 63n - 1n;

/** strconv.Atoi with its errors (`strconv.Atoi: parsing "x": invalid syntax`). */
function goAtoi(s: string): number {
  const m = /^[+-]?[0-9]+$/.exec(s);
  if (!m) throw new CronSyntaxError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > MAX_INT64 || n < -MAX_INT64 - 1n) throw new CronSyntaxError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return Number(n);
}

function parseCronInt(expr: string): number {
  let n: number;
  try {
    n = goAtoi(expr);
  } catch (err) {
    throw new CronSyntaxError(`failed to parse int from ${expr}: ${(err as Error).message}`);
  }
  if (n < 0) throw new CronSyntaxError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Record<string, number> | undefined): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseCronInt(expr);
}

/** One range of a field: `*`, `?`, `n`, `n-m`, each with an optional `/step`. */
function parseRange(expr: string, b: Bounds): number[] {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  let start: number, end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, b.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, b.names);
    else throw new CronSyntaxError(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseCronInt(rangeAndStep[1]!);
    // `n/step` runs from n to the field's maximum.
    if (lowAndHigh.length === 1) end = b.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronSyntaxError(`too many slashes: ${expr}`);
  }
  if (start < b.min) throw new CronSyntaxError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
  if (end > b.max) throw new CronSyntaxError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
  if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronSyntaxError(`step of range should be a positive number: ${expr}`);
  return range(start, end, step);
}

/** A comma-separated list of ranges (empty items are skipped, as strings.FieldsFunc does). */
function parseField(field: string, b: Bounds): number[] {
  const values = new Set<number>();
  for (const expr of field.split(',').filter((r) => r !== '')) for (const v of parseRange(expr, b)) values.add(v);
  return [...values].sort((x, y) => x - y);
}

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n, us: 1_000n, 'µs': 1_000n, 'μs': 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};

/** The `quote` of Go's time package: non-ASCII and control bytes as \x escapes. */
function timeQuote(s: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(s)) {
    if (byte >= 0x80 || byte < 0x20) out += '\\x' + byte.toString(16).padStart(2, '0');
    else {
      const ch = String.fromCharCode(byte);
      out += ch === '"' || ch === '\\' ? '\\' + ch : ch;
    }
  }
  return out + '"';
}

/** time.ParseDuration, in nanoseconds, with its error texts. */
export function parseGoDuration(orig: string): bigint {
  const invalid = () => new CronSyntaxError(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') { negative = s[0] === '-'; s = s.slice(1); }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    const number = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    if (!/^[0-9.]/.test(s)) throw invalid();
    const whole = number[1]!, fraction = number[2];
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    s = s.slice(number[0].length);
    const unitMatch = /^[^0-9.]*/.exec(s)![0];
    if (unitMatch === '') throw new CronSyntaxError(`time: missing unit in duration ${timeQuote(orig)}`);
    s = s.slice(unitMatch.length);
    const unit = DURATION_UNITS[unitMatch];
    if (unit === undefined) throw new CronSyntaxError(`time: unknown unit ${timeQuote(unitMatch)} in duration ${timeQuote(orig)}`);
    const v = whole === '' ? 0n : BigInt(whole);
    if (v > 2n ** 63n / unit) throw invalid();
    let value = v * unit;
    if (fraction) value += BigInt(Math.floor(Number(`0.${fraction}`) * Number(unit)));
    total += value;
    if (total > 2n ** 63n) throw invalid();
  }
  if (!negative && total > 2n ** 63n - 1n) throw invalid();
  return negative ? -total : total;
}

/**
 * cron.ParseStandard: the schedule, or a CronSyntaxError whose message is robfig/cron's. The library panics on
 * a TZ= prefix with nothing after it (Kubernetes then answers a 500); here that is a syntax error too.
 */
export function parseStandardSchedule(spec: string): CronSchedule {
  if (spec.length === 0) throw new CronSyntaxError('empty spec string');
  let timeZone: string | undefined;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    if (space < 0) throw new CronSyntaxError(`invalid timezone specification: ${spec}`);
    const name = spec.slice(spec.indexOf('=') + 1, space);
    const problem = loadLocationError(name);
    if (problem) throw new CronSyntaxError(`provided bad location ${name}: ${problem}`);
    timeZone = name;
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    const descriptor = DESCRIPTORS[spec];
    if (descriptor) return { ...descriptor(), timeZone };
    if (spec.startsWith('@every ')) {
      let ns: bigint;
      try {
        ns = parseGoDuration(spec.slice('@every '.length));
      } catch (err) {
        throw new CronSyntaxError(`failed to parse duration ${spec}: ${(err as Error).message}`);
      }
      const everyMs = Number(ns / 1_000_000n);
      return { minutes: [], hours: [], daysOfMonth: [], months: [], daysOfWeek: [], everyMs, timeZone };
    }
    throw new CronSyntaxError(`unrecognized descriptor: ${spec}`);
  }
  const fields = goFields(spec);
  if (fields.length !== 5) throw new CronSyntaxError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  return {
    minutes: parseField(minute, MINUTES),
    hours: parseField(hour, HOURS),
    daysOfMonth: parseField(dom, DAYS_OF_MONTH),
    months: parseField(month, MONTHS),
    daysOfWeek: parseField(dow, DAYS_OF_WEEK),
    timeZone,
  };
}

/** Where Go's time package finds zone files on Linux (before its embedded copy). */
const ZONEINFO_DIRS = ['/usr/share/zoneinfo', '/usr/share/lib/zoneinfo', '/usr/lib/locale/TZ', '/etc/zoneinfo'];
let zoneinfoDir: string | null | undefined;
const knownZones = new Map<string, boolean>();

function intlKnows(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `name` names a zone Go's time.LoadLocation finds. ICU (Intl) knows the IANA names, links included,
 * but case-insensitively and with UTC offsets too; Go looks the exact name up as a file. So a name must be one
 * Intl knows, and, when the system has a zone database, be a file of it (the exact case).
 */
export function isKnownTimeZone(name: string): boolean {
  const cached = knownZones.get(name);
  if (cached !== undefined) return cached;
  let known = /^[A-Za-z]/.test(name) && !name.includes(':') && intlKnows(name);
  if (known) {
    zoneinfoDir ??= ZONEINFO_DIRS.find((d) => existsSync(d)) ?? null;
    if (zoneinfoDir) {
      try { known = statSync(join(zoneinfoDir, name)).isFile(); } catch { known = false; }
    }
  }
  knownZones.set(name, known);
  return known;
}

/** time.LoadLocation's error for `name`, or undefined when it loads ("" and "UTC" are UTC, "Local" is local). */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') return 'time: invalid location name';
  return isKnownTimeZone(name) ? undefined : `unknown time zone ${name}`;
}
