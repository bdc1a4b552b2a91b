import { readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used so far (Linux /proc; clock ticks of 10 ms), NaN once it is gone. */
export function processCpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
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
