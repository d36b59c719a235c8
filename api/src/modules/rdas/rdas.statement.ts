import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import type { JobRunner } from '../../jobs/queue.js';
import { rdaComplete, type RdaGap } from '@vigia/contract/rules/rda';
import { RDA_STATEMENT_SETTLE_MS, statementRunAt } from './rdas.rules.js';
import type { RecordRdaInput } from './rdas.service.js';

/**
 * The patient's own RDA (RDA de paciente, issue 51): written when a patient is enrolled and again
 * when the history they state changes (conditions, medication, allergies, family history). A change
 * queues one job per patient and slot (rdas.rules `statementRunAt`), keyed so that the changes of a
 * few minutes write one document; the job builds it from the rows as they are then.
 */
export const RDA_STATEMENT_JOB = 'rda.statement';

export interface StatementIds {
  clientId: number;
  patientId: number;
  /** The author: the user who enrolled the patient or made the slot's first change. */
  userId: number;
}

export interface StatementWriterDeps {
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string) => void;
  /** The statement as the rows stand (null: the patient is gone), or what it still lacks. */
  buildStatement: (ids: StatementIds) => Promise<{ gaps: RdaGap[]; bundle: object | null } | null>;
  recordRda: (input: RecordRdaInput) => Promise<unknown>;
}

/**
 * Queues the patient's statement; inside `transaction`, only if the change commits. The slot's job
 * reads the rows when it runs, so a change while it waits is in it; once it has run (or while it
 * runs, perhaps past the rows this change writes) the change goes to the next slot's job.
 */
export async function queuePatientStatement(
  deps: Pick<StatementWriterDeps, 'jobs' | 'now'> & { sequelize: Sequelize },
  ids: StatementIds,
  transaction?: Transaction,
): Promise<void> {
  let runAt = statementRunAt(deps.now());
  for (;;) {
    const key = `${RDA_STATEMENT_JOB}:${ids.patientId}:${runAt.getTime()}`;
    const job = { kind: RDA_STATEMENT_JOB, key, clientId: ids.clientId, payload: ids, runAt, maxAttempts: 5 };
    if (await deps.jobs.enqueue(job, transaction)) return;
    const [taken] = await select<{ status: string }>(deps.sequelize, 'SELECT status FROM jobs WHERE key = :key', { key }, transaction);
    if (!taken || taken.status === 'pending') return;
    runAt = new Date(runAt.getTime() + RDA_STATEMENT_SETTLE_MS);
  }
}

/**
 * Writes the patient's statement as the rows stand (the job's work, and the demo's first
 * documents): answers whether a document was kept; an incomplete one is not written and the log
 * names the missing fields.
 */
export async function writePatientStatement(deps: Pick<StatementWriterDeps, 'buildStatement' | 'recordRda' | 'log'>, ids: StatementIds) {
  const built = await deps.buildStatement(ids);
  if (!built) return false;
  if (!built.bundle || !rdaComplete(built.gaps)) {
    // Nothing incomplete is written or sent; the patient page lists what is missing. No ids: the
    // log stays free of personal data (P214); the fields say what an organisation has to fill.
    const missing = built.gaps.filter((g) => g.required).map((g) => `${g.record}.${g.field}`);
    deps.log(`RDA de paciente sin escribir: le falta ${missing.join(', ')}`);
    return false;
  }
  await deps.recordRda({ clientId: ids.clientId, patientId: ids.patientId, kind: 'paciente', bundle: built.bundle });
  return true;
}

export function registerStatementJobs(deps: StatementWriterDeps): void {
  deps.jobs.register(RDA_STATEMENT_JOB, async (job) => {
    await writePatientStatement(deps, job.payload as StatementIds);
  });
}
