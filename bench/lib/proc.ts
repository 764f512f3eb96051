import { readFileSync } from "node:fs";

/**
 * Another process's resident memory and CPU time, read from /proc (Linux). CPU time per request is the
 * figure that stays stable on a shared 2-core machine where req/s and latency move with the neighbours.
 */
const CLK_TCK = 100; // USER_HZ on Linux x86-64

export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** utime + stime of the process (all threads), microseconds. */
export function cpuUs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Samples RSS every 200 ms until stopped; returns the peak and the CPU time used meanwhile. */
export function sampleProcess(pid: number) {
  const cpu0 = cpuUs(pid);
  let peak = rssMiB(pid);
  let result: { peakRssMiB: number; cpuUs: number } | null = null;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 200);
  return {
    stop() {
      if (!result) {
        clearInterval(timer);
        result = { peakRssMiB: Math.max(peak, rssMiB(pid)), cpuUs: cpuUs(pid) - cpu0 };
      }
      return result;
    },
  };
}
