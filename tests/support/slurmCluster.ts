import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { freePort } from './freePort.ts';

/** The commands a one-node cluster needs (Debian: slurmctld, slurmd, slurm-client, munge; SETUP_SOAK=1 scripts/setup.sh). */
const SLURM_COMMANDS = ['slurmctld', 'slurmd', 'sbatch', 'sinfo', 'munged', 'mungekey'];

/** Whether a private one-node Slurm cluster can start here: its daemons installed, and root to run slurmd. */
export const CAN_RUN_SLURM =
  process.getuid?.() === 0 && SLURM_COMMANDS.every((command) => spawnSync('which', [command]).status === 0);

/** A running private cluster: the environment its client commands need, and how to stop it. */
export interface SlurmCluster {
  /** `SLURM_CONF` pointing at the cluster's own configuration. */
  readonly env: Record<string, string>;
  /** The daemons' logs, for a failing test's message. */
  logs(): string;
  /** Stops slurmd, slurmctld and munged (SIGTERM, then waits for each to end). */
  stop(): Promise<void>;
}

/** The daemon pid files of a cluster in `dir`, in the order they are stopped. */
const PID_FILES = ['slurmd.pid', 'slurmctld.pid', 'munged.pid'];

/**
 * The cluster's configuration: one partition of one node (this machine, its CPUs), the
 * controller and node daemon on their own ports, every state folder under `dir`, no cgroups
 * or accounting (nothing outside `dir` is touched).
 */
function slurmConf(dir: string, ports: { controller: number; node: number }, cpus: number): string {
  return [
    'ClusterName=gentest',
    `SlurmctldHost=${hostname().split('.')[0]}(127.0.0.1)`,
    `SlurmctldPort=${ports.controller}`,
    `SlurmdPort=${ports.node}`,
    'SlurmUser=root',
    'SlurmdUser=root',
    'AuthType=auth/munge',
    'CredType=cred/munge',
    `AuthInfo=socket=${join(dir, 'munge.socket')}`,
    `StateSaveLocation=${join(dir, 'state')}`,
    `SlurmdSpoolDir=${join(dir, 'spool')}`,
    `SlurmctldPidFile=${join(dir, 'slurmctld.pid')}`,
    `SlurmdPidFile=${join(dir, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(dir, 'slurmctld.log')}`,
    `SlurmdLogFile=${join(dir, 'slurmd.log')}`,
    'ProctrackType=proctrack/linuxproc',
    'TaskPlugin=task/none',
    'JobAcctGatherType=jobacct_gather/none',
    'AccountingStorageType=accounting_storage/none',
    'SchedulerType=sched/builtin',
    'SelectType=select/cons_tres',
    'SelectTypeParameters=CR_CPU',
    'ReturnToService=2',
    'MpiDefault=none',
    // Memory is not scheduled (CR_CPU); the node declares enough for a task's --mem request.
    `NodeName=gennode NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=8192 State=UNKNOWN`,
    'PartitionName=gen Nodes=gennode Default=YES MaxTime=INFINITE State=UP',
    '',
  ].join('\n');
}

/** Whether a process runs (signal 0 probes without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a private one-node Slurm cluster in `dir` (its own munge key and socket, its own ports,
 * state and spool folders) and waits until its node is idle. Needs root (slurmd runs jobs as
 * their users) and the Debian packages CAN_RUN_SLURM checks.
 */
export async function startSlurmCluster(dir: string, cpus: number): Promise<SlurmCluster> {
  for (const folder of ['state', 'spool']) mkdirSync(join(dir, folder), { recursive: true });
  const key = join(dir, 'munge.key');
  await execa('mungekey', ['--create', `--keyfile=${key}`]);
  chmodSync(key, 0o600);
  const conf = join(dir, 'slurm.conf');
  writeFileSync(conf, slurmConf(dir, { controller: await freePort(), node: await freePort() }, cpus));
  const env = { SLURM_CONF: conf };
  const logs = (): string =>
    ['munged.log', 'slurmctld.log', 'slurmd.log']
      .filter((log) => existsSync(join(dir, log)))
      .map((log) => `== ${log}\n${readFileSync(join(dir, log), 'utf8').slice(-2000)}`)
      .join('\n');
  const stop = async (): Promise<void> => {
    for (const file of PID_FILES) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const pid = Number(readFileSync(path, 'utf8').trim());
      if (!alive(pid)) continue;
      process.kill(pid, 'SIGTERM');
      for (let wait = 0; wait < 100 && alive(pid); wait++) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    // --force: munged wants everyone to be able to enter the socket's folders; a test's stay private.
    await execa('munged', [
      '--force',
      `--socket=${join(dir, 'munge.socket')}`,
      `--key-file=${key}`,
      `--log-file=${join(dir, 'munged.log')}`,
      `--pid-file=${join(dir, 'munged.pid')}`,
      `--seed-file=${join(dir, 'munged.seed')}`,
    ]);
    await execa('slurmctld', ['-f', conf, '-i'], { env });
    await execa('slurmd', ['-f', conf, '-N', 'gennode'], { env });
    for (let attempt = 0; attempt < 100; attempt++) {
      const state = await execa('sinfo', ['-h', '-o', '%t'], { env, reject: false });
      if (state.stdout.trim() === 'idle') return { env, logs, stop };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the one-node Slurm cluster did not come up\n${logs()}`);
  } catch (error) {
    await stop();
    throw error;
  }
}
