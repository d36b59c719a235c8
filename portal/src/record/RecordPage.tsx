import { useCallback, useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../api';
import { Brand } from '../Brand';
import { LOGIN_PATH, navigate } from '../navigation';
import { clearSession, readSession } from '../session';
import type { Patient } from '../types';
import { AdherenceCard } from './AdherenceCard';
import { ChartsAccordion } from './charts/ChartsAccordion';
import { DownloadsCard } from './DownloadsCard';
import { InfoCard } from './InfoCard';
import { RECORD_CARDS, RECORD_TEXT } from './record.data';
import { useIdleLogout } from './useIdleLogout';

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; patient: Patient };

/** Revokes the token on the server without waiting: leaving must be instant and work offline too. */
function logout(): void {
  const session = readSession();
  if (session) apiRequest('DELETE', '/sessions', { token: session.token }).catch(() => undefined);
  clearSession();
  navigate(LOGIN_PATH);
}

export function RecordPage() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useIdleLogout(logout);

  const fetchPatient = useCallback((signal: { cancelled: boolean }) => {
    const session = readSession();
    if (!session) return;
    setLoad({ state: 'loading' });
    apiRequest<Patient>('GET', `/patients/${session.patient_id}`, { token: session.token }).then(
      (patient) => {
        if (!signal.cancelled) setLoad({ state: 'ready', patient });
      },
      (error: unknown) => {
        if (signal.cancelled) return;
        if (error instanceof ApiError && error.status === 401) {
          clearSession();
          navigate(LOGIN_PATH, { replace: true });
          return;
        }
        setLoad({ state: 'failed' });
      },
    );
  }, []);

  useEffect(() => {
    const signal = { cancelled: false };
    fetchPatient(signal);
    return () => {
      signal.cancelled = true;
    };
  }, [fetchPatient]);

  return (
    <div className="portal">
      <header className="topbar">
        <div className="topbar__inner">
          <Brand />
          <span className="topbar__title">{RECORD_TEXT.header}</span>
          <button type="button" className="button button--ghost topbar__logout" onClick={logout}>
            {RECORD_TEXT.logout}
          </button>
        </div>
      </header>

      <main className="portal__content">
        {load.state === 'loading' && (
          <p className="status" role="status">
            {RECORD_TEXT.loading}
          </p>
        )}

        {load.state === 'failed' && (
          <div className="card status">
            <p className="alert" role="alert">
              {RECORD_TEXT.loadFailed}
            </p>
            <button type="button" className="button button--primary" onClick={() => fetchPatient({ cancelled: false })}>
              {RECORD_TEXT.retry}
            </button>
          </div>
        )}

        {load.state === 'ready' && (
          <>
            <h1 className="portal__greeting">{RECORD_TEXT.greeting(load.patient.first_name)}</h1>
            <div className="cards">
              {RECORD_CARDS.map((spec) => (
                <InfoCard key={spec.id} spec={spec} patient={load.patient} />
              ))}
            </div>
            <AdherenceCard percent={load.patient.measurements_adherence} />
            <ChartsAccordion patientId={load.patient.id} timeZone={load.patient.time_zone} />
            <DownloadsCard patientId={load.patient.id} />
          </>
        )}
      </main>
    </div>
  );
}
