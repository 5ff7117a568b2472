import fs from 'node:fs';

/** Resident memory of Chromium's renderer and GPU processes (where the page's frames and textures live). */
export function chromiumMemoryBytes(): number {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('chromium') || !/--type=(renderer|gpu-process)/.test(cmdline)) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      total += rss ? Number(rss[1]) * 1024 : 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
