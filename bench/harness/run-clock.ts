/**
 * How long a stretch of the bench took and how much CPU it used, so that a run's duration on a loaded
 * machine can be told apart from what it would take on a quiet one: the CPU of this process and of its
 * child processes that have ended (servers, probes; Linux counts a child's time into its parent's once the
 * child is reaped), user plus system. Divided by the cores, the CPU is a floor for the quiet wall clock.
 */
import { readFileSync } from 'node:fs';

export interface RunTook {
  readonly wallMs: number;
  /** This process's CPU plus its ended children's, ms; NaN for the children's part without /proc. */
  readonly cpuMs: number;
}

export interface RunClock {
  took(): RunTook;
}

export function startRunClock(): RunClock {
  const wallStarted = performance.now();
  const cpuStarted = cpuSoFarMs();
  return {
    took: () => ({ wallMs: performance.now() - wallStarted, cpuMs: cpuSoFarMs() - cpuStarted }),
  };
}

/** Clock ticks per second of /proc's times: 100 on every Linux build Node runs on. */
const TICKS_PER_SECOND = 100;

function cpuSoFarMs(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000 + endedChildrenCpuMs();
}

function endedChildrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) start at the state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const childUser = Number(fields[16 - 3]);
    const childSystem = Number(fields[17 - 3]);
    return ((childUser + childSystem) * 1000) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}
