import type { QueryInterface } from 'sequelize';

/**
 * A kind's pending jobs in the order they are claimed (issue 51). The claim of a pool (`rda.send`,
 * four at a time) went through every job of its kind by `jobs_kind_client`, done ones included, and
 * sorted the due ones: with an RDA backlog of 10,000 it took 20-80 ms inside the writer's turn. This
 * index holds only the pending jobs (partial), by kind and run_at, so the claim reads the few it
 * takes (jobs/queue.ts `claim`). Done jobs, most of the table, are not in it.
 */
const INDEX = 'jobs_pending';

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.sequelize.query(`CREATE INDEX ${INDEX} ON jobs (kind, run_at) WHERE status = 'pending'`);
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('jobs', INDEX);
}
