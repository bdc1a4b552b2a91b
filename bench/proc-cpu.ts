import { readFileSync } from 'node:fs';

/** User and system (kernel) CPU seconds a process has used so far (Linux /proc; clock ticks of 10 ms), NaN once it is gone. */
function processTimes(pid: number | undefined): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}

/** CPU seconds (user + system) a process has used so far, NaN once it is gone. */
export function processCpuSeconds(pid: number | undefined): number {
  const t = processTimes(pid);
  return t.user + t.system;
}

/**
 * The kernel's part of those seconds (system calls, page faults, the disk flushes of a commit),
 * NaN once it is gone. On this machine's kind (a virtual machine whose kernel entries are
 * expensive) it is a figure of its own: bench/README.md shows where it goes.
 */
export function processSystemSeconds(pid: number | undefined): number {
  return processTimes(pid).system;
}

/**
 * Read and write system calls a process has made so far (/proc/<pid>/io syscr + syscw: read,
 * readv, write, writev and their kin, sockets included), NaN once it is gone. On this machine a
 * system call that wakes another process costs far more than its bytes (bench/README.md): the
 * count per note is a figure the machine's pace does not move.
 */
export function processSyscalls(pid: number | undefined): number {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? Number.NaN);
    return field('syscr') + field('syscw');
  } catch {
    return Number.NaN;
  }
}
