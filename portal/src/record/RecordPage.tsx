import { useCallback } from 'react';
import { apiRequest } from '../api';
import { Brand } from '../Brand';
import { OfflineBanner } from '../OfflineBanner';
import { ReadNotice } from '../ReadNotice';
import { LOGIN_PATH, navigate } from '../navigation';
import { clearSession, readSession, type PatientSession } from '../session';
import type { Patient } from '../types';
import { useCachedRead } from '../useCachedRead';
import { AdherenceCard } from './AdherenceCard';
import { ChartsAccordion } from './charts/ChartsAccordion';
import { DownloadsCard } from './DownloadsCard';
import { InfoCard } from './InfoCard';
import { LatestReadingsCard, useLatestReadings } from './LatestReadingsCard';
import { NextActivitiesCard } from './NextActivitiesCard';
import { RECORD_CARDS, RECORD_TEXT } from './record.data';
import { useIdleLogout } from './useIdleLogout';

/** Revokes the token on the server without waiting: leaving must be instant and work offline too. */
function logout(): void {
  const session = readSession();
  if (session) apiRequest('DELETE', '/sessions', { token: session.token }).catch(() => undefined);
  clearSession();
  navigate(LOGIN_PATH);
}

const fetchPatient = (session: PatientSession) => apiRequest<Patient>('GET', `/patients/${session.patient_id}`, { token: session.token });

/**
 * The record, in the order a patient opens it for (issue 50): the latest readings with their range,
 * what comes next, adherence, the charts and downloads; the demographics last.
 */
export function RecordPage() {
  const record = useCachedRead('record', useCallback(fetchPatient, []));
  const latest = useLatestReadings();
  const patient = record.phase === 'ready' || record.phase === 'stale' ? record.data : null;
  useIdleLogout(logout);

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
        <OfflineBanner online={record.online} lastReadAt={record.readAt} />
        {record.phase === 'loading' && (
          <p className="status" role="status">
            {RECORD_TEXT.loading}
          </p>
        )}

        {/* Offline, the banner above already says the record is from its last read, with the time. */}
        <ReadNotice
          phase={record.phase === 'stale' && !record.online ? 'ready' : record.phase}
          what="sus datos"
          readAt={record.readAt}
          online={record.online}
          text={RECORD_TEXT.loadFailed}
          onRetry={record.retry}
        />

        {patient && (
          <>
            <h1 className="portal__greeting">{RECORD_TEXT.greeting(patient.first_name)}</h1>
            <LatestReadingsCard read={latest} timeZone={patient.time_zone} />
            <NextActivitiesCard patient={patient} />
            <AdherenceCard percent={patient.measurements_adherence} />
            <ChartsAccordion patientId={patient.id} timeZone={patient.time_zone} />
            <DownloadsCard patientId={patient.id} />
            <div className="cards">
              {RECORD_CARDS.map((spec) => (
                <InfoCard key={spec.id} spec={spec} patient={patient} />
              ))}
            </div>
          </>
        )}
      </main>
    </div>
  );
}
