// A small metrics registry written out in the Prometheus text format (version 0.0.4), with Kubernetes'
// component-base conventions: a stability level in front of every help text (`[STABLE] ...`), deprecated
// metrics marked `(Deprecated since X.Y.Z)`, and metrics deprecated before the current minor release
// hidden unless --show-hidden-metrics-for-version names the previous minor release.
import { goFloat } from '../../machinery/go-value.ts';

export type StabilityLevel = 'ALPHA' | 'BETA' | 'STABLE';
export type MetricType = 'counter' | 'gauge';

export interface MetricOptions {
  name: string;
  help: string;
  /** ALPHA unless said otherwise, as component-base defaults it. */
  stability?: StabilityLevel;
  /** The release that deprecated the metric: `1.27.0`. */
  deprecatedVersion?: string;
  labels?: readonly string[];
}

export interface MetricsRegistryOptions {
  /** The release the server is: its major and minor numbers. */
  version: { major: number; minor: number };
  /** Show metrics hidden by their deprecation (the flag's value was checked at start). */
  showHidden?: boolean;
}

interface Sample {
  values: readonly string[];
  value: number;
}

/** A metric and its samples, one per distinct set of label values. */
class Family {
  readonly type: MetricType;
  readonly name: string;
  readonly help: string;
  readonly labels: readonly string[];
  readonly hidden: boolean;
  protected readonly samples = new Map<string, Sample>();

  constructor(type: MetricType, o: MetricOptions, registry: MetricsRegistryOptions) {
    this.type = type;
    this.name = o.name;
    this.labels = o.labels ?? [];
    const deprecated = o.deprecatedVersion !== undefined && !isLater(o.deprecatedVersion, registry.version);
    this.hidden = deprecated && isBeforeMinor(o.deprecatedVersion!, registry.version) && !registry.showHidden;
    const help = deprecated ? `(Deprecated since ${o.deprecatedVersion}) ${o.help}` : o.help;
    this.help = `[${o.stability ?? 'ALPHA'}] ${help}`;
  }

  protected sample(values: readonly string[]): Sample {
    if (values.length !== this.labels.length) throw new Error(`${this.name}: expected ${this.labels.length} label values, got ${values.length}`);
    const key = values.join('\u0000');
    let s = this.samples.get(key);
    if (!s) {
      s = { values: [...values], value: 0 };
      this.samples.set(key, s);
    }
    return s;
  }

  /** The family's text, or '' when it has no sample (as Prometheus' client leaves out an empty vector). */
  write(): string {
    if (this.hidden || this.samples.size === 0) return '';
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    const rows = [...this.samples.values()].map((s) => `${this.name}${labelText(this.labels, s.values)} ${formatValue(s.value)}`);
    rows.sort();
    return `${lines.join('\n')}\n${rows.join('\n')}\n`;
  }
}

export class CounterVec extends Family {
  inc(values: readonly string[] = [], by = 1): void {
    if (this.hidden) return;
    this.sample(values).value += by;
  }

  /** The counter of one label set, for a caller that keeps it (Prometheus' WithLabelValues); a hidden metric's counts nothing. */
  withLabelValues(values: readonly string[]): { inc(): void } {
    if (this.hidden) return { inc() {} };
    const s = this.sample(values);
    return { inc() { s.value++; } };
  }
}

export class GaugeVec extends Family {
  set(values: readonly string[], value: number): void {
    if (this.hidden) return;
    this.sample(values).value = value;
  }
}

/** A metric read when the registry is written out (process memory and CPU). */
export interface Collected {
  name: string;
  help: string;
  type: MetricType;
  /** Help text as is: metrics of Prometheus' own collectors carry no stability level. */
  raw?: boolean;
  read(): number;
}

export class MetricsRegistry {
  readonly #options: MetricsRegistryOptions;
  readonly #families: Family[] = [];
  readonly #collected: Collected[] = [];
  readonly #beforeWrite: (() => void)[] = [];

  constructor(options: MetricsRegistryOptions) {
    this.#options = options;
  }

  counter(o: MetricOptions): CounterVec {
    return this.#add(new CounterVec('counter', o, this.#options));
  }

  gauge(o: MetricOptions): GaugeVec {
    return this.#add(new GaugeVec('gauge', o, this.#options));
  }

  collect(c: Collected): void {
    this.#collected.push(c);
  }

  /** Runs `update` each time the metrics are written (gauges read from elsewhere). */
  beforeWrite(update: () => void): void {
    this.#beforeWrite.push(update);
  }

  #add<F extends Family>(f: F): F {
    if (this.#families.some((x) => x.name === f.name) || this.#collected.some((x) => x.name === f.name)) throw new Error(`metric ${f.name} is registered twice`);
    this.#families.push(f);
    return f;
  }

  /** Every metric with samples, in name order. */
  write(): string {
    for (const update of this.#beforeWrite) update();
    const parts: [string, string][] = this.#families.map((f) => [f.name, f.write()]);
    for (const c of this.#collected) {
      const help = c.raw ? c.help : `[ALPHA] ${c.help}`;
      parts.push([c.name, `# HELP ${c.name} ${escapeHelp(help)}\n# TYPE ${c.name} ${c.type}\n${c.name} ${formatValue(c.read())}\n`]);
    }
    parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return parts.map((p) => p[1]).join('');
  }
}

/** The text format's content type, as Prometheus' Go client sends it. */
export const TEXT_FORMAT = 'text/plain; version=0.0.4; charset=utf-8';

function parseVersion(v: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = v.replace(/^v/, '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  return [major, minor, patch];
}

/** `deprecatedVersion` is a later release than the current one (not yet deprecated). */
function isLater(deprecatedVersion: string, current: { major: number; minor: number }): boolean {
  const [major, minor] = parseVersion(deprecatedVersion);
  return major > current.major || (major === current.major && minor > current.minor);
}

/** component-base's shouldHide: deprecated before the current minor release's first patch. */
function isBeforeMinor(deprecatedVersion: string, current: { major: number; minor: number }): boolean {
  const [major, minor] = parseVersion(deprecatedVersion);
  return major < current.major || (major === current.major && minor < current.minor);
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** `{a="1",b="2"}` with the labels in name order, as the Go client writes them; '' without labels. */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return '';
  const pairs = names.map((n, i) => [n, values[i]] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `{${pairs.map(([n, v]) => `${n}="${escapeLabelValue(v)}"`).join(',')}}`;
}

/** A value as Go's strconv.FormatFloat(v, 'g', -1, 64) writes it: `1`, `0.25`, `1.234567e+06`, `+Inf`. */
export const formatValue = goFloat;
