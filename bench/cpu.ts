import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/*
 * Server CPU per request (issue 27): the CPU time of the server process, every thread of it (the libuv pool
 * compresses and hashes), read from /proc before and after a run and divided by the requests it answered.
 * Far steadier than req/s on a shared machine, since another process's load does not count.
 */

const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/** User plus system CPU milliseconds the process has used so far. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name, in brackets, may hold spaces: count fields from after its closing bracket.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Runs `work` and answers the server's CPU milliseconds per request it reports having made. */
export async function cpuPerRequest<T>(
  pid: number,
  work: () => Promise<T>,
  requestsOf: (result: T) => number,
): Promise<{ result: T; cpuMsPerRequest: number }> {
  const before = cpuMsOf(pid);
  const result = await work();
  const spent = cpuMsOf(pid) - before;
  const requests = requestsOf(result);
  return { result, cpuMsPerRequest: requests > 0 ? Number((spent / requests).toFixed(2)) : Number.NaN };
}
