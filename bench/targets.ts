/**
 * The targets (issue 7) that cannot be measured yet because their feature does not exist.
 * They stay in the report as 'pendiente' rows, with no figure, until their scenario is added to
 * scenarios.ts; then the row moves out of this list.
 */
export const API_RSS_TARGET_BYTES = 300 * 1024 * 1024;
/** The size the issue states the patient targets for. */
export const TARGET_PATIENTS_PER_CLIENT = 100_000;

export interface PendingRow { what: string; target: string; waitsFor: string }

export const PENDING: PendingRow[] = [
  {
    what: 'One reading per request through the full path (auth, validation, insert, alarm check, activity match, webhook queue)',
    target: '≥ 1,500 readings/s; p99 ≤ 25 ms at 500 req/s; ≥ 0.5 × bare-insert baseline',
    waitsFor: 'measurement ingestion',
  },
  { what: 'Batch ingestion, 100 readings per request', target: '≥ 20,000 readings/s', waitsFor: 'measurement ingestion' },
  { what: 'Chart series for one patient and element, 10M readings', target: 'p95 ≤ 15 ms', waitsFor: 'charts' },
  { what: 'Alerts manager list with filters, 1M alerts', target: 'p95 ≤ 50 ms', waitsFor: 'alerts' },
  { what: 'Dashboard counts', target: 'p95 ≤ 50 ms', waitsFor: 'alerts and orders' },
  { what: "CSV export of a year of one patient's readings", target: 'streams; API RSS < 300 MB', waitsFor: 'measurement export' },
  { what: 'Portal first page, JavaScript gzip', target: '≤ 90 KB', waitsFor: 'front-end size rows of this harness' },
  { what: 'Admin login page / patient page before its charts, JavaScript gzip', target: '≤ 350 KB / ≤ 500 KB', waitsFor: 'front-end size rows; charts' },
  { what: 'Patient page shows its charts (headless Chromium, large data set)', target: 'time reported', waitsFor: 'charts' },
  { what: 'Two API processes on one PostgreSQL behind a round-robin proxy', target: 'scales out; no scheduled work lost or duplicated', waitsFor: 'scheduled work (orders, activities)' },
];
