// Reading the tables `kubectl get` prints: columns are separated by two or more spaces (or a tab).
import assert from 'node:assert/strict';

const cells = (line: string) => line.trim().split(/\s{2,}|\t/);

/** The header line of `kubectl get` output, split into column names. */
export function header(stdout: string): string[] {
  return cells(stdout.split('\n')[0]!);
}

/** The row with a cell equal to `name` (the NAME column, wherever it stands), split into cells. */
export function row(stdout: string, name: string): string[] {
  const line = stdout.split('\n').slice(1).find((l) => cells(l).includes(name));
  assert.ok(line, `no row for ${name} in:\n${stdout}`);
  return cells(line);
}
