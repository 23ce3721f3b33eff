// Whether a JSON answer is indented, as Kubernetes decides it (isPrettyPrint in the apiserver's negotiation):
// a non-empty `pretty` query parameter decides by strconv.ParseBool (a value it cannot parse means no);
// without one, browsers and command-line HTTP tools (User-Agent curl, Wget or Mozilla/5.0) get indented JSON.
import type { IncomingHttpHeaders } from 'node:http';
import { goParseBool } from '../machinery/go-format.ts';

const HUMAN_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'];

export function isPrettyPrint(url: string | undefined, headers: IncomingHttpHeaders): boolean {
  const q = url?.indexOf('?') ?? -1;
  // Most requests have no `pretty`: skip parsing their query.
  if (q >= 0 && url!.includes('pretty', q)) {
    const pretty = new URLSearchParams(url!.slice(q + 1)).get('pretty');
    if (pretty) return goParseBool(pretty) === true;
  }
  const agent = headers['user-agent'];
  return typeof agent === 'string' && HUMAN_AGENTS.some((prefix) => agent.startsWith(prefix));
}
