// The official Python client, run as a script by the interpreter that has it installed.
import { execFile } from 'node:child_process';

const PYTHON = '/usr/bin/python3';

export function runPython(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, ['-c', script, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Whether the `kubernetes` package can be imported (tests that need it are skipped without it). */
export const pythonClient = await runPython('import kubernetes', []).then((r) => r.code === 0, () => false);
