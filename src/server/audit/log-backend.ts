// The audit log: one event per line, JSON or `legacy` text, to a file or (`-`) to standard output. The file
// is rotated as Kubernetes' log backend (lumberjack) rotates it: past --audit-log-maxsize megabytes (100 when
// 0) it is renamed `<name>-<UTC time>.<ext>`, optionally gzipped, and old files beyond --audit-log-maxbackup
// or older than --audit-log-maxage days are removed. Files are created readable by the owner only: at
// Request level and above they hold request bodies (Secrets included).
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { eventJson, eventLegacy, type AuditEvent } from './event.ts';

export type AuditLogFormat = 'json' | 'legacy';

export interface AuditLogOptions {
  /** A file, or `-` for standard output. */
  path: string;
  format?: AuditLogFormat;
  maxAgeDays?: number;
  maxBackups?: number;
  maxSizeMB?: number;
  compress?: boolean;
}

export interface AuditSink {
  write(event: AuditEvent): void;
  close(): void;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export function openAuditLog(o: AuditLogOptions): AuditSink {
  const encode = (o.format ?? 'json') === 'legacy' ? eventLegacy : eventJson;
  if (o.path === '-') {
    return { write: (e) => { process.stdout.write(encode(e) + '\n'); }, close: () => {} };
  }
  return new RotatingFile(o, encode);
}

/** The file the events go to: written synchronously (an event is on its way to disk before the answer). */
class RotatingFile implements AuditSink {
  readonly #o: AuditLogOptions;
  readonly #encode: (e: AuditEvent) => string;
  readonly #maxBytes: number;
  #fd: number | undefined;
  #size = 0;

  constructor(o: AuditLogOptions, encode: (e: AuditEvent) => string) {
    this.#o = o;
    this.#encode = encode;
    this.#maxBytes = (o.maxSizeMB || DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.#open();
  }

  #open(): void {
    mkdirSync(dirname(this.#o.path), { recursive: true, mode: 0o755 });
    this.#fd = openSync(this.#o.path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  write(e: AuditEvent): void {
    if (this.#fd === undefined) return;
    const line = Buffer.from(this.#encode(e) + '\n', 'utf8');
    if (this.#size + line.length > this.#maxBytes && this.#size > 0) this.#rotate();
    writeSync(this.#fd, line);
    this.#size += line.length;
  }

  #rotate(): void {
    closeSync(this.#fd!);
    const backup = backupName(this.#o.path, new Date());
    renameSync(this.#o.path, backup);
    this.#open();
    // Old files are compressed and removed after the event that caused the rotation has been written.
    setImmediate(() => { try { this.#mill(); } catch { /* a file that vanished is not our concern */ } });
  }

  /** Removes backups past the count and age limits and compresses the rest when asked (lumberjack's millRun). */
  #mill(): void {
    const backups = listBackups(this.#o.path);
    const remove = new Set<string>();
    if (this.#o.maxBackups && this.#o.maxBackups > 0) {
      const kept = new Set<string>();
      for (const b of backups) {
        const key = b.file.replace(/\.gz$/, '');
        if (!kept.has(key) && kept.size >= this.#o.maxBackups) remove.add(b.file);
        else kept.add(key);
      }
    }
    if (this.#o.maxAgeDays && this.#o.maxAgeDays > 0) {
      const cutoff = Date.now() - this.#o.maxAgeDays * DAY_MS;
      for (const b of backups) if (b.time < cutoff) remove.add(b.file);
    }
    const dir = dirname(this.#o.path);
    for (const file of remove) rmSync(join(dir, file), { force: true });
    if (!this.#o.compress) return;
    for (const b of backups) {
      if (remove.has(b.file) || b.file.endsWith('.gz')) continue;
      const from = join(dir, b.file);
      writeFileSync(`${from}.gz`, gzipSync(readFileSync(from)), { mode: 0o600 });
      rmSync(from, { force: true });
    }
  }

  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

/** `/var/log/audit.log` rotated at 2024-05-01 10:00:00.123 UTC is `/var/log/audit-2024-05-01T10-00-00.123.log`. */
export function backupName(path: string, at: Date): string {
  const ext = extname(path);
  const prefix = basename(path, ext);
  const stamp = at.toISOString().slice(0, 23).replace(/:/g, '-');
  return join(dirname(path), `${prefix}-${stamp}${ext}`);
}

/** The rotated files of `path`, newest first. */
function listBackups(path: string): { file: string; time: number }[] {
  const ext = extname(path);
  const prefix = `${basename(path, ext)}-`;
  const out: { file: string; time: number }[] = [];
  for (const file of readdirSync(dirname(path))) {
    if (!file.startsWith(prefix)) continue;
    const rest = file.slice(prefix.length).replace(/\.gz$/, '');
    if (!rest.endsWith(ext)) continue;
    const stamp = rest.slice(0, rest.length - ext.length);
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
    if (!m) continue;
    out.push({ file, time: Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) });
  }
  return out.sort((a, b) => b.time - a.time);
}
