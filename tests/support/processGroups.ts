import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes of a group that still run (Linux /proc): a killed group's processes turn into
 * zombies at once, and this machine's init reaps the reparented ones only now and then.
 */
export function liveMembers(group: number): number[] {
  const live: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // ended meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z' && state !== 'X') live.push(Number(entry));
  }
  return live;
}

/** Waits until no process of the group runs, for at most `ms`; the group's processes left running. */
export async function liveAfter(group: number, ms = 2000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (liveMembers(group).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return liveMembers(group);
}
