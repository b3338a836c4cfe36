/**
 * The CPU time a process (a child server, or this one) has used so far, summed over its threads — the
 * event loop, libuv's pool (WebCrypto, fs) and V8's helpers — at nanosecond resolution, from Linux's
 * `/proc/<pid>/task/<tid>/schedstat`. Per-operation CPU of a server measured this way barely moves when other
 * processes share the cores, unlike its latency. NaN where there is no /proc (the figure is then missing).
 */
import { readdirSync, readFileSync } from 'node:fs';

export function processCpuMicros(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return Number.NaN;
  }
  let nanoseconds = 0;
  for (const task of tasks) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ', 1)[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return nanoseconds / 1000;
}
