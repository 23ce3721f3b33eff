// Real etcd processes for tests: one member or a cluster, on free loopback ports, with data in a
// temporary directory. Members can be stopped and started again (same name, ports and data) to test
// failures. Every process started here is killed when the test process exits.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdStartOptions {
  /** Client TLS: the member serves https with this certificate and key (PEM file paths). */
  tls?: { certFile: string; keyFile: string; caFile?: string; clientCertAuth?: boolean };
  /** How often idle watchers get a progress report (default 250ms; etcd's own default is 10m). */
  progressNotifyInterval?: string;
}

const STARTUP_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LINES = 40;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export class EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  readonly #args: string[];
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();
  #log: string[] = [];

  constructor(name: string, clientUrl: string, peerUrl: string, dataDir: string, args: string[]) {
    this.name = name;
    this.clientUrl = clientUrl;
    this.peerUrl = peerUrl;
    this.dataDir = dataDir;
    this.#args = args;
  }

  /** The process id while the member runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** The last lines etcd logged, for failure messages. */
  get log(): string {
    return this.#log.join('\n');
  }

  /** Starts the process and waits until it answers on its client URL (not for a leader). */
  async start(): Promise<void> {
    if (this.#child) throw new Error(`etcd member ${this.name} is already running`);
    killAllOnExit();
    const child = spawn('etcd', this.#args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#child = child;
    running.add(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const lines = stderr.split('\n');
      stderr = lines.pop()!;
      this.#log.push(...lines);
      if (this.#log.length > LOG_LINES) this.#log.splice(0, this.#log.length - LOG_LINES);
    });
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => {
        running.delete(child);
        if (this.#child === child) this.#child = undefined;
        resolve();
      });
    });
    child.once('error', (err) => this.#log.push(`spawn failed: ${err.message}`));
    await this.#waitListening();
  }

  /** Stops the process by its pid (SIGTERM lets a leader hand over; SIGKILL does not) and waits for it. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.#child;
    if (!child) return;
    try {
      process.kill(child.pid!, signal);
    } catch {
      // It exited on its own in the meantime.
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.#exited;
    clearTimeout(timer);
  }

  /** Waits until the member reports itself healthy (it is part of a cluster with a leader); plain http only. */
  async waitHealthy(): Promise<void> {
    await this.#poll('to report health', async () => {
      const res = await fetch(`${this.clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      return res.ok && /"health":\s*"true"/.test(await res.text());
    });
  }

  async #waitListening(): Promise<void> {
    const { hostname, port } = new URL(this.clientUrl);
    await this.#poll('to listen', () => canConnect(hostname, Number(port)));
  }

  async #poll(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    for (;;) {
      if (!this.#child) throw new Error(`etcd member ${this.name} exited:\n${this.log}`);
      if (await check().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`etcd member ${this.name} took too long ${what}:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export class EtcdCluster {
  readonly members: EtcdMember[];
  readonly #root: string;

  private constructor(members: EtcdMember[], root: string) {
    this.members = members;
    this.#root = root;
  }

  /** Client URLs of all members. */
  get endpoints(): string[] {
    return this.members.map((m) => m.clientUrl);
  }

  /** Starts `size` members and waits until the cluster has a leader. */
  static async start(size: number, options: EtcdStartOptions = {}): Promise<EtcdCluster> {
    const root = await mkdtemp(join(tmpdir(), 'capstan-etcd-'));
    const ports = await freePorts(size * 2);
    const scheme = options.tls ? 'https' : 'http';
    const names = Array.from({ length: size }, (_, i) => `m${i}`);
    const peerUrls = names.map((_, i) => `http://127.0.0.1:${ports[2 * i + 1]}`);
    const initialCluster = names.map((name, i) => `${name}=${peerUrls[i]}`).join(',');
    const token = `capstan-${process.pid}-${Date.now().toString(36)}`;
    const members = names.map((name, i) => {
      const clientUrl = `${scheme}://127.0.0.1:${ports[2 * i]}`;
      const dataDir = join(root, name);
      const args = [
        `--name=${name}`,
        `--data-dir=${dataDir}`,
        `--listen-client-urls=${clientUrl}`,
        `--advertise-client-urls=${clientUrl}`,
        `--listen-peer-urls=${peerUrls[i]}`,
        `--initial-advertise-peer-urls=${peerUrls[i]}`,
        `--initial-cluster=${initialCluster}`,
        `--initial-cluster-token=${token}`,
        '--initial-cluster-state=new',
        // Quick failure detection on loopback.
        '--heartbeat-interval=50',
        '--election-timeout=500',
        // Idle watchers learn progress from these; etcd's default is 10 minutes.
        `--experimental-watch-progress-notify-interval=${options.progressNotifyInterval ?? '250ms'}`,
        // Tests survive process crashes, not machine crashes.
        '--unsafe-no-fsync',
        '--logger=zap',
        '--log-outputs=stderr',
        '--log-level=error',
        ...tlsArgs(options),
      ];
      return new EtcdMember(name, clientUrl, peerUrls[i]!, dataDir, args);
    });
    const cluster = new EtcdCluster(members, root);
    try {
      await Promise.all(members.map((m) => m.start()));
      if (!options.tls) await cluster.waitHealthy();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Waits until every running member reports a healthy cluster. */
  async waitHealthy(): Promise<void> {
    await Promise.all(this.members.filter((m) => m.running).map((m) => m.waitHealthy()));
  }

  /** Stops every member and deletes the data. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop('SIGKILL')));
    await rm(this.#root, { recursive: true, force: true });
  }
}

/** One etcd member. */
export function startEtcd(options: EtcdStartOptions = {}): Promise<EtcdCluster> {
  return EtcdCluster.start(1, options);
}

/** A cluster of `size` members (three by default). */
export function startEtcdCluster(size = 3, options: EtcdStartOptions = {}): Promise<EtcdCluster> {
  return EtcdCluster.start(size, options);
}

function tlsArgs(options: EtcdStartOptions): string[] {
  const tls = options.tls;
  if (!tls) return [];
  const args = [`--cert-file=${tls.certFile}`, `--key-file=${tls.keyFile}`];
  if (tls.caFile) args.push(`--trusted-ca-file=${tls.caFile}`);
  if (tls.clientCertAuth) args.push('--client-cert-auth');
  return args;
}

/** Ports nobody listens on now: all are held open together, so they are distinct, then released. */
async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => {
      const address = s.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
