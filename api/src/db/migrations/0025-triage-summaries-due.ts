import type { QueryInterface } from 'sequelize';

/**
 * The triage rules gained two flags (issue 41: readings out of range below the share threshold,
 * and a single value NEWS2 scores 3): every stored summary was computed without them. Making them
 * due now lets the summary job recompute them in its next runs (the oldest first, at most 5,000
 * patients a run), so the list and `npm run triage:rebuild -- --check` agree within minutes of the
 * upgrade instead of within the 6 hours a summary otherwise holds. No data changes but the due time.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.sequelize.query('UPDATE triage_summaries SET valid_until = computed_at WHERE valid_until > computed_at');
}

export async function down() {
  // Nothing to undo: a summary made due is recomputed, never lost.
}
