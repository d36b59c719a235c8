/**
 * When an API process may take traffic (issue 39's readiness): a load balancer or Kubernetes asks
 * /api/health/ready and sends nothing to a process that answers 503. Each reason has a stable code
 * for the operator's tooling and a Spanish sentence for the operator.
 */

/** A due job older than this while the runner polls means the queue is stuck (the runner polls every second). */
export const STALLED_AFTER_MS = 5 * 60_000;

export interface ReadinessFacts {
  /** null when `SELECT 1` answered; the failure's message otherwise. */
  databaseError: string | null;
  /** Migrations this code has that the database lacks (null when the database could not be asked). */
  pendingMigrations: string[] | null;
  /** Whether this process polls the job queue. */
  jobsStarted: boolean;
  /** Age of the oldest pending job whose run_at has passed (null: none, or not asked). */
  oldestDueMs: number | null;
  /** SIGTERM received: finishing what is in flight, taking nothing new. */
  shuttingDown: boolean;
}

export interface Reason {
  code: 'starting' | 'database_unavailable' | 'migrations_pending' | 'jobs_stalled' | 'shutting_down';
  message: string;
}

/**
 * Readiness while the process starts (it listens before it migrates, issue 41; a start took 67–77 s
 * on a loaded machine): not ready, yet alive, so a liveness probe does not kill a slow start.
 */
export const STARTING: Reason = {
  code: 'starting',
  message: 'Vigía está iniciando (migraciones, catálogos): recibirá peticiones en cuanto termine.',
};

export function readinessReasons(f: ReadinessFacts): Reason[] {
  const reasons: Reason[] = [];
  if (f.shuttingDown)
    reasons.push({
      code: 'shutting_down',
      message: 'El proceso se está deteniendo: termina lo que tiene en curso y no recibe peticiones nuevas.',
    });
  if (f.databaseError !== null) reasons.push({ code: 'database_unavailable', message: 'La base de datos no responde.' });
  if (f.pendingMigrations?.length)
    reasons.push({
      code: 'migrations_pending',
      message: `Faltan ${f.pendingMigrations.length} migración(es) por aplicar a la base de datos: ${f.pendingMigrations.join(', ')}.`,
    });
  if (f.jobsStarted && f.oldestDueMs !== null && f.oldestDueMs > STALLED_AFTER_MS)
    reasons.push({
      code: 'jobs_stalled',
      message: `La cola de tareas está detenida: la tarea vencida más antigua espera desde hace ${Math.round(f.oldestDueMs / 60_000)} minutos.`,
    });
  return reasons;
}
