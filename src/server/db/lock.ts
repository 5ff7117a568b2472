import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * An exclusive lock on the data directory. PGlite has no cross-process locking, and two
 * processes writing one directory corrupt it, so the second process must refuse to start.
 * The lock file holds the owner's pid and, where the system tells it (Linux), when that process
 * started; a lock left by a process that no longer runs is taken over.
 *
 * Why the start time (issue 16, found by killing the server): a server killed with SIGKILL (or
 * by the OOM killer, or a host crash) leaves its lock behind, and by the time it is started again
 * its pid may belong to someone else — a restarted container hands out the same small pids again,
 * and thread ids share the pid space (`kill(tid, 0)` succeeds for any thread of any process,
 * the new server's own included). With the pid alone the new server then took that live process
 * for the owner and refused to start until somebody deleted the file by hand. The pid must now
 * name a process (not a thread) that started when the lock was written.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const startTime = processStartTime(process.pid);
      fs.writeFileSync(lockPath, startTime === null ? String(process.pid) : `${process.pid}\n${startTime}\n`, { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        fs.rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // First line the pid; second line (absent in locks of older versions) its start time.
      const [pidLine = '', startLine = ''] = fs.readFileSync(lockPath, 'utf8').split('\n');
      const owner = Number(pidLine.trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && ownerRuns(owner, startLine.trim() || null)) {
        throw new DataDirLockedError(
          `The data directory ${dataDir} is in use by another server process (pid ${owner}). ` +
            'Stop that process, or set DATA_DIR to another directory.',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

/** Whether the process that wrote the lock still runs: its pid is a live process that started when the lock says. */
function ownerRuns(pid: number, startTime: string | null): boolean {
  if (!isRunning(pid)) return false;
  const stat = procStat(pid);
  // No /proc (not Linux) or not readable: the pid is all there is to go by.
  if (stat === null) return true;
  // A thread id: a pid given out again, to a thread (a lock always names a process).
  if (!stat.isProcess) return false;
  return startTime === null || stat.startTime === startTime;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** When a process started (clock ticks since boot, from /proc), or null where the system does not tell. */
function processStartTime(pid: number): string | null {
  return procStat(pid)?.startTime ?? null;
}

function procStat(pid: number): { startTime: string; isProcess: boolean } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so fields are counted after the last ')'.
    // starttime is field 22; the fields after comm start at field 3.
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[22 - 3];
    const tgid = /^Tgid:\s*(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (!startTime || !tgid) return null;
    return { startTime, isProcess: Number(tgid) === pid };
  } catch {
    return null;
  }
}
