import { UserError } from '../../common/errors.ts';

/** A failure of one testbench process: the message names the process (name and fork site) and the cycle. */
export class ProcessError extends UserError {
  constructor(
    /** The process's label: its name and, where known, where it was forked. */
    readonly process: string,
    /** The cycle (session step) the failure happened in. */
    readonly cycle: number,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`process ${process} ${detail}`, options);
  }
}

/** A process threw: the first line of the cause's message, with the values it read in that cycle. */
export class ProcessFailedError extends ProcessError {
  constructor(process: string, cycle: number, cause: unknown, reads: string) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(process, cycle, `failed at cycle ${cycle}: ${message.split('\n')[0]}${reads}`, { cause });
  }
}

/** `until` or a join waited longer than its timeout: what it waited for, the cycle and the values it read. */
export class ProcessTimeoutError extends ProcessError {
  constructor(process: string, cycle: number, waitedFor: string, timeout: number, reads: string) {
    super(process, cycle, `timed out at cycle ${cycle}: ${waitedFor} did not happen within ${timeout} cycles${reads}`);
  }
}

/** What a cancelled process's pending wait rejects with, and what joining a cancelled process gives. */
export class ProcessCancelledError extends ProcessError {
  constructor(process: string, cycle: number) {
    super(process, cycle, `was cancelled at cycle ${cycle}`);
  }
}

/** Every live process waits on another to finish: nothing could ever move the simulation on. */
export class ProcessDeadlockError extends ProcessError {
  constructor(process: string, cycle: number, waits: readonly string[]) {
    super(process, cycle, `is deadlocked at cycle ${cycle}: ${waits.join('; ')}`);
  }
}
