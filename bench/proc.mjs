// What a process on this machine has used, read from /proc (Linux): the benchmarks' CPU and memory figures.
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ, as on every Linux we run on (getconf CLK_TCK)

/** A process's CPU time so far (user + system), in seconds, or null once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** A process's resident memory in MB, or null once it is gone. */
export function rssMb(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round(Number(line.replace(/\D+/g, '')) / 1024) : null;
  } catch {
    return null;
  }
}

/** The CPU seconds so far of each PostgreSQL backend connected to `database` (`db` a pg client of this machine's server), by pid. */
export async function postgresCpu(db, database) {
  const { rows } = await db.query('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  const cpu = new Map();
  for (const { pid } of rows) {
    const seconds = cpuSeconds(pid);
    if (seconds !== null) cpu.set(pid, seconds);
  }
  return cpu;
}
