// The node port range (--service-node-port-range), parsed as Kubernetes' net.PortRange: `base-max`,
// `base+offset` or a single port.
import { goQuote } from '../../machinery/go-format.ts';

export interface PortRange {
  readonly base: number;
  readonly size: number;
}

export const DEFAULT_SERVICE_NODE_PORT_RANGE = '30000-32767';

const INTEGER = /^[+-]?[0-9]+$/;

/** strconv.Atoi, with its error text. */
function atoi(text: string): number {
  if (!INTEGER.test(text)) throw new Error(`strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`);
  return Number(text);
}

/** Parses a port range; throws an Error with net.PortRange's texts. */
export function parsePortRange(input: string): PortRange {
  const value = input.trim();
  if (value === '') throw new Error('the port range must not be empty');
  const hyphen = value.indexOf('-');
  const plus = value.indexOf('+');
  let low: number, high: number;
  if (hyphen < 0 && plus < 0) {
    low = high = atoi(value);
  } else if (hyphen >= 0 && plus < 0) {
    low = atoi(value.slice(0, hyphen));
    high = atoi(value.slice(hyphen + 1));
  } else if (plus >= 0 && hyphen < 0) {
    low = atoi(value.slice(0, plus));
    high = low + atoi(value.slice(plus + 1));
  } else {
    throw new Error(`unable to parse port range: ${value}`);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${value}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${value}`);
  return { base: low, size: 1 + high - low };
}

/** `base-max`, as net.PortRange.String prints it (and Kubernetes' error messages quote it). */
export function formatPortRange(range: PortRange): string {
  return `${range.base}-${range.base + range.size - 1}`;
}

export function portRangeContains(range: PortRange, port: number): boolean {
  return port >= range.base && port < range.base + range.size;
}
