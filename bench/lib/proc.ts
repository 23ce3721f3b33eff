// Process facts read from /proc: resident memory of a server process.
import { readFileSync } from 'node:fs';

/** VmRSS of a process in MB (1 MB = 1024 KiB, as /proc reports kB), or null if it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
