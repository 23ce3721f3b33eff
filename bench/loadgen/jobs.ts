// The jobs a load-generating child runs, as plain data (they cross a process boundary).
import type { Target } from '../lib/tls.ts';

/** How a timed measurement is repeated: an untimed warm-up, then `runs` timed runs. */
export interface RunShape { warmupS: number; durationS: number; runs: number }

/** Which requests to send; every system gets the same stream of requests. */
export type RequestSpec =
  | { type: 'get-random'; namespace: string; namePrefix: string; count: number }
  | { type: 'create-generated'; namespace: string }
  | { type: 'create-named'; namespace: string; namePrefix: string; start: number }
  | { type: 'patch-random'; namespace: string; namePrefix: string; count: number };

/** One timed run of a throughput workload. */
export interface RateRun { rate: number; ok: number; failed: number; seconds: number; p50Ms: number; p99Ms: number; statuses: Record<string, number> }

export interface AutocannonJob { kind: 'autocannon'; target: Target; connections: number; shape: RunShape; request: RequestSpec }
export interface AmountJob { kind: 'autocannon-amount'; target: Target; connections: number; amount: number; request: RequestSpec }
export interface AmountResult { ok: number; failed: number; seconds: number; statuses: Record<string, number> }
export interface PutChainJob { kind: 'put-chain'; target: Target; connections: number; shape: RunShape; namespace: string; namePrefix: string }
export interface H2Job { kind: 'h2'; target: Target; sessions: number; streamsPerSession: number; shape: RunShape; request: RequestSpec }
export interface ListJob { kind: 'list'; target: Target; path: string; runs: number; warmups: number; pageLimit?: number; /** Count only items named so (the server adds objects of its own, e.g. kube-root-ca.crt). */ namePrefix?: string }
export interface ListResult { ms: number[]; items: number; bytes: number; pages: number }
export interface PacedWriterJob { kind: 'paced-writer'; target: Target; namespace: string; names: string[]; ratePerS: number; durationS: number; connections: number }
export interface PacedWriterResult { sent: number; ok: number; failed: number; startedAt: number; endedAt: number; statuses: Record<string, number> }
