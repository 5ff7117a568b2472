/**
 * Debian's dcmtk as an independent judge of the DICOM files the server writes: a tool that is not
 * installed skips its tests with a notice rather than failing them.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const hasTool = (tool: string) => spawnSync(tool, ['--version']).status === 0;

export function requireTools(...tools: string[]): boolean {
  const missing = tools.filter((tool) => !hasTool(tool));
  if (missing.length > 0) console.warn(`dcmtk's ${missing.join(', ')} not installed: their checks are skipped (apt-get install dcmtk).`);
  return missing.length === 0;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a tool to the end, whatever its exit code. */
export function run(tool: string, args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(tool, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A scratch directory for the files handed to the tools, removed by `remove`. */
export function scratch(): { file: (name: string, bytes?: Uint8Array) => string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-sr-'));
  return {
    file: (name, bytes) => {
      const file = path.join(dir, name);
      if (bytes) fs.writeFileSync(file, bytes);
      return file;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
