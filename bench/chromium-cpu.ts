import fs from 'node:fs';

/**
 * CPU seconds used so far by every process this Node process started, transitively (the
 * Chromiums with their GPU, renderer and utility processes), user + system, from /proc. Per
 * painted frame it is a cost that the shared machine's load stretches far less than frame rates.
 */
export function descendantCpuSeconds(root = process.pid): number {
  const parentOf = new Map<number, number>();
  const cpuOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      parentOf.set(Number(entry), Number(fields[1]));
      cpuOf.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const isDescendant = (pid: number): boolean => {
    for (let current = parentOf.get(pid); current !== undefined && current > 1; current = parentOf.get(current)) if (current === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, cpu] of cpuOf) if (isDescendant(pid)) total += cpu;
  return total;
}
