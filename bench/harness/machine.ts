/**
 * The machine a benchmark ran on, stored with its figures: numbers mean little without it.
 */
import os from 'node:os';

export interface MachineInfo {
  readonly os: string;
  readonly osRelease: string;
  readonly arch: string;
  readonly cpuModel: string;
  readonly cpuCount: number;
  readonly totalMemoryBytes: number;
  readonly nodeVersion: string;
}

export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    os: os.type(),
    osRelease: os.release(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: os.availableParallelism(),
    totalMemoryBytes: os.totalmem(),
    nodeVersion: process.version,
  };
}
