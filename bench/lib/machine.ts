// The machine a run happened on, recorded beside its figures.
import { cpus, totalmem, availableParallelism, loadavg, release } from 'node:os';
import { execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createCipheriv } from 'node:crypto';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  etcd: string | null;
  loadAverageAtStart: number[];
  /** Filled in when the run ends: other work on the machine shows here. */
  loadAverageAtEnd?: number[];
  capstanCommit: string | null;
  /** One byte to another process over loopback TCP and back, in µs (median of 5 runs of 2,000): what every
   *  request of a run pays in wake-ups at least. Machines differ here far more than in computing speed
   *  (4 to 180 µs seen), so it explains runs that differ in every figure. */
  loopbackRoundTripUs?: number | null;
  /** AES-256-GCM encryption in one thread, in MB/s, on 16 KiB records: the cipher Node's TLS 1.3 picks for
   *  every HTTPS request and watch event of a run, on the server and the load generator alike. Virtual
   *  machines that trap vector instructions run it at a tenth of the usual speed or less. */
  aesGcmMBps?: number;
}

function tryRun(cmd: string, args: string[], cwd?: string): string | null {
  try { return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return null; }
}

export function etcdVersion(): string | null {
  const out = tryRun('etcd', ['--version']);
  return out ? (/etcd Version:\s*(\S+)/.exec(out)?.[1] ?? out.split('\n')[0]) : null;
}

/** The short commit of the checkout, with "+changes" when src/ differs from it. */
function commitOf(repoRoot: string): string | null {
  const head = tryRun('git', ['rev-parse', '--short', 'HEAD'], repoRoot);
  if (!head) return null;
  return tryRun('git', ['status', '--porcelain', '--', 'src'], repoRoot) ? `${head}+changes` : head;
}

export function loadAverage(): number[] {
  return loadavg().map((l) => Math.round(l * 100) / 100);
}

export function machineInfo(repoRoot: string): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    etcd: etcdVersion(),
    loadAverageAtStart: loadAverage(),
    capstanCommit: commitOf(repoRoot),
  };
}

const ECHO_SERVER = "const s = require('node:net').createServer((c) => c.on('data', (d) => c.write(d))).listen(0, '127.0.0.1', () => console.log(s.address().port));";

/** The loopback round trip to another process (see MachineInfo.loopbackRoundTripUs); null when it cannot be measured. */
export async function loopbackRoundTripUs(runs = 5, trips = 2000): Promise<number | null> {
  const child = spawn(process.execPath, ['-e', ECHO_SERVER], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      child.once('exit', () => reject(new Error('echo server exited')));
    });
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
    const results: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      await new Promise<void>((resolve) => {
        let left = trips;
        const onData = () => {
          if (--left === 0) { socket.off('data', onData); resolve(); } else socket.write('x');
        };
        socket.on('data', onData);
        socket.write('x');
      });
      results.push(((performance.now() - t0) * 1000) / trips);
    }
    socket.destroy();
    results.sort((a, b) => a - b);
    return Math.round(results[results.length >> 1] * 10) / 10;
  } catch {
    return null;
  } finally {
    child.kill();
  }
}

/** One thread's AES-256-GCM throughput in MB/s (see MachineInfo.aesGcmMBps): the best of `runs` runs. */
export function aesGcmMBps(runs = 3, records = 2000): number {
  const record = Buffer.alloc(16384, 1);
  const key = Buffer.alloc(32, 2);
  let best = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    for (let i = 0; i < records; i++) {
      const iv = Buffer.alloc(12);
      iv.writeUInt32BE(i, 8);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.update(record);
      cipher.final();
    }
    const seconds = (performance.now() - t0) / 1000;
    best = Math.max(best, (record.length * records) / seconds / 1e6);
  }
  return Math.round(best);
}
