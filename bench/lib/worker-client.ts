// The orchestrator's side of a load-generating child process (see loadgen/protocol.ts).
import type { ChildProcess } from 'node:child_process';
import { forkTracked, stopChild } from './children.ts';
import type { ReplyMessage } from '../loadgen/protocol.ts';

export class WorkerClient {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

  constructor(modulePath: string) {
    this.child = forkTracked(modulePath, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (msg: ReplyMessage) => {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.error !== undefined) w.reject(new Error(`${modulePath}: ${msg.error}`));
      else w.resolve(msg.result);
    });
    this.child.on('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.reject(new Error(`${modulePath} exited (${code ?? signal})`));
      this.waiting.clear();
    });
  }

  get pid(): number | undefined { return this.child.pid; }

  call<T>(job: { kind: string } & Record<string, unknown>): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, job });
    });
  }

  async close(): Promise<void> {
    if (this.child.connected) this.child.disconnect();
    await stopChild(this.child, 2000);
  }
}
