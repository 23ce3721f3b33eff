// A small keep-alive HTTP/1.1 client over one TLS connection: one request at a time, bodies framed by
// content-length or chunked encoding. It exists because a request chain (read the new resourceVersion
// from each answer, send it with the next update) is beyond autocannon, and node:https costs the load
// generator more CPU than this does.
import { connect, type TLSSocket } from 'node:tls';
import type { Target } from '../lib/tls.ts';

export interface H1Response { status: number; headers: Record<string, string>; body: Buffer }

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-crlf' | 'trailer' | 'until-close';

const CRLF = Buffer.from('\r\n');
const CRLFCRLF = Buffer.from('\r\n\r\n');

export class H1Connection {
  private socket: TLSSocket | null = null;
  private readonly host: string;
  private readonly port: number;
  private readonly target: Target;
  private state: State = 'head';
  private pending: Buffer = Buffer.alloc(0);
  private remaining = 0;
  private bodyParts: Buffer[] = [];
  private current: { status: number; headers: Record<string, string> } | null = null;
  private waiter: { resolve: (r: H1Response) => void; reject: (e: Error) => void } | null = null;

  private readonly timeoutMs: number;

  constructor(target: Target, timeoutMs = 60_000) {
    this.target = target;
    this.timeoutMs = timeoutMs;
    const u = new URL(target.url);
    this.host = u.hostname;
    this.port = Number(u.port || 443);
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({
        host: this.host, port: this.port, servername: 'localhost', rejectUnauthorized: false,
        ca: this.target.ca, cert: this.target.cert, key: this.target.key, ALPNProtocols: ['http/1.1'],
      });
      socket.setNoDelay(true);
      socket.once('secureConnect', () => { this.socket = socket; resolve(); });
      socket.on('data', (d: Buffer) => this.onData(d));
      socket.on('error', (e) => { this.fail(e); reject(e); });
      socket.on('close', () => {
        if (this.state === 'until-close' && this.current) this.finish();
        this.socket = null;
        this.fail(new Error('connection closed'));
      });
    });
  }

  async request(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<H1Response> {
    if (!this.socket) await this.open();
    const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body;
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\nAccept: application/json\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    if (payload) head += `Content-Length: ${payload.length}\r\n`;
    head += '\r\n';
    this.state = 'head';
    this.pending = Buffer.alloc(0);
    this.bodyParts = [];
    this.current = null;
    return new Promise((resolve, reject) => {
      // A server that never answers must not hang the benchmark.
      const timer = setTimeout(() => { this.fail(new Error(`${method} ${path}: no answer in ${this.timeoutMs} ms`)); this.close(); }, this.timeoutMs);
      this.waiter = {
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
      this.socket!.write(payload ? Buffer.concat([Buffer.from(head), payload]) : head);
    });
  }

  close(): void { this.socket?.destroy(); this.socket = null; }

  private fail(e: Error): void {
    const w = this.waiter;
    this.waiter = null;
    w?.reject(e);
  }

  private finish(): void {
    const w = this.waiter;
    const cur = this.current!;
    const body = this.bodyParts.length === 1 ? this.bodyParts[0] : Buffer.concat(this.bodyParts);
    this.waiter = null;
    this.current = null;
    this.bodyParts = [];
    this.state = 'head';
    if (cur.headers.connection?.toLowerCase() === 'close') this.close();
    w?.resolve({ status: cur.status, headers: cur.headers, body });
  }

  private onData(data: Buffer): void {
    let buf = this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    this.pending = Buffer.alloc(0);
    while (buf.length > 0 || this.state === 'length' || this.state === 'chunk-data') {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(CRLFCRLF);
          if (end < 0) { this.pending = buf; return; }
          const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
          const status = Number(lines[0].split(' ')[1]);
          const headers: Record<string, string> = {};
          for (let i = 1; i < lines.length; i++) {
            const colon = lines[i].indexOf(':');
            headers[lines[i].slice(0, colon).trim().toLowerCase()] = lines[i].slice(colon + 1).trim();
          }
          this.current = { status, headers };
          buf = buf.subarray(end + 4);
          if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) this.state = 'chunk-size';
          else if (headers['content-length'] !== undefined) { this.remaining = Number(headers['content-length']); this.state = 'length'; }
          else this.state = 'until-close';
          break;
        }
        case 'length': {
          const take = Math.min(this.remaining, buf.length);
          if (take > 0) this.bodyParts.push(buf.subarray(0, take));
          this.remaining -= take;
          buf = buf.subarray(take);
          if (this.remaining === 0) { this.finish(); if (buf.length > 0) continue; }
          return;
        }
        case 'chunk-size': {
          const end = buf.indexOf(CRLF);
          if (end < 0) { this.pending = buf; return; }
          const size = parseInt(buf.subarray(0, end).toString('latin1'), 16);
          buf = buf.subarray(end + 2);
          if (size === 0) { this.state = 'trailer'; break; }
          this.remaining = size;
          this.state = 'chunk-data';
          break;
        }
        case 'chunk-data': {
          const take = Math.min(this.remaining, buf.length);
          if (take > 0) this.bodyParts.push(buf.subarray(0, take));
          this.remaining -= take;
          buf = buf.subarray(take);
          if (this.remaining > 0) return;
          this.state = 'chunk-crlf';
          break;
        }
        case 'chunk-crlf': {
          if (buf.length < 2) { this.pending = buf; return; }
          buf = buf.subarray(2);
          this.state = 'chunk-size';
          break;
        }
        case 'trailer': {
          // Trailer lines, if any, end with an empty line.
          const end = buf.indexOf(CRLF);
          if (end < 0) { this.pending = buf; return; }
          buf = buf.subarray(end + 2);
          if (end === 0) this.finish();
          break;
        }
        case 'until-close': {
          this.bodyParts.push(buf);
          return;
        }
      }
    }
  }
}
