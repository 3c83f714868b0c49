import type { CommandModule } from 'yargs';
import { integerOption } from '../../../common/optionValues.ts';
import { capJobs } from '../../../verif/regress/workerPool.ts';
import { DEFAULT_FARM_QUEUE } from '../../../verif/regress/farm/farmJob.ts';
import { startFarmWorker } from '../../../verif/regress/farm/farmWorker.ts';
import { parseFarmUrl } from '../../../verif/regress/farm/redisUrl.ts';
import { projectOf } from '../project.ts';

interface WorkerArguments {
  farm: string;
  queue: string;
  jobs: number;
  'lock-ms': number;
}

/** Default shard lock: a dead worker's shard goes to another worker within about twice this. */
const DEFAULT_LOCK_MS = 30_000;

/**
 * `gen worker --farm redis://host:port`: a regression farm worker. Started on any number of
 * machines (each in a checkout of the project), it takes shards of `gen regress --farm` runs from
 * the queue until stopped (SIGINT/SIGTERM let the shard in hand finish; SIGKILL hands it to another
 * worker after the lock lapses).
 */
export const workerCommand: CommandModule<object, WorkerArguments> = {
  command: 'worker',
  builder: (yargs) =>
    yargs
      .option('farm', {
        type: 'string',
        demandOption: true,
        describe: "the farm's Redis: redis://[user:password@]host:port[/db], or rediss://… for TLS (docs/farm.md)",
      })
      .option('queue', { type: 'string', default: DEFAULT_FARM_QUEUE, describe: 'the queue to take shards from' })
      .option('jobs', {
        type: 'string',
        coerce: (text: unknown) => integerOption('jobs', text, { min: 1 }),
        default: 1,
        describe: 'worker threads per shard (as gen regress --jobs)',
      })
      .option('lock-ms', {
        type: 'string',
        coerce: (text: unknown) => integerOption('lock-ms', text, { min: 1000 }),
        default: DEFAULT_LOCK_MS,
        describe: "milliseconds a shard's lock lasts unrenewed: how soon a killed worker's shard is retried elsewhere",
      }) as never,
  handler: async (args) => {
    // Suites load from this checkout's config, as the submitter's do.
    await projectOf({ design: [] });
    const connection = parseFarmUrl(args.farm);
    const capped = capJobs(args.jobs);
    const log = (line: string): void => void process.stderr.write(`gen worker: ${line}\n`);
    if (capped.note !== undefined) log(capped.note);
    const worker = await startFarmWorker({
      connection,
      queue: args.queue,
      jobs: capped.jobs,
      lockMs: args['lock-ms'],
      log,
    });
    log(`taking shards from ${connection.shown}, queue ${args.queue} (SIGINT or SIGTERM to stop)`);
    await new Promise<void>((resolve) => {
      const stop = (): void => void worker.close().then(resolve, resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};
