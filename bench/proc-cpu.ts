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
