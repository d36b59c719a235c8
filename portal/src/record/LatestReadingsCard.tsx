import { useCallback } from 'react';
import { CHARTS, type AlarmRange } from '@vigia/contract/rules/charts';
import { apiRequest } from '../api';
import { ReadNotice } from '../ReadNotice';
import type { PatientSession } from '../session';
import { useCachedRead, type CachedRead } from '../useCachedRead';
import { latestReadings, type LatestRow } from './latest.data';

interface LatestData {
  rows: LatestRow[];
  alarms: AlarmRange[];
}

const ELEMENTS = CHARTS.flatMap((c) => c.elements);

/** The newest reading of each element (one row each) and the patient's alarm rules, for the ranges. */
async function fetchLatest(session: PatientSession): Promise<LatestData> {
  const base = `/patients/${session.patient_id}`;
  const [rows, alarms] = await Promise.all([
    Promise.all(
      ELEMENTS.map((e) =>
        apiRequest<LatestRow[]>(
          'GET',
          `${base}/measurements?${new URLSearchParams({ clinical_element: String(e), order: 'desc', _end: '1' })}`,
          {
            token: session.token,
          },
        ),
      ),
    ),
    apiRequest<AlarmRange[]>('GET', `${base}/alarms`, { token: session.token }),
  ]);
  return { rows: rows.flat().map((r) => ({ clinical_element: r.clinical_element, value: Number(r.value), when: r.when })), alarms };
}

/**
 * The read of the card, started by the page together with the record's (not once the record is
 * there): on a slow network that is one round trip less before the readings show.
 */
export function useLatestReadings(): CachedRead<LatestData> {
  return useCachedRead('latest', useCallback(fetchLatest, []), (d) => d.rows.length === 0);
}

/** 'Mis últimas mediciones': the first thing on the portal (issue 50), value, unit, when and range in words. */
export function LatestReadingsCard({ read, timeZone }: { read: CachedRead<LatestData>; timeZone: string }) {
  const readings =
    read.data && (read.phase === 'ready' || read.phase === 'stale') ? latestReadings(read.data.rows, read.data.alarms, timeZone) : [];

  return (
    <section className="card latest" aria-labelledby="card-latest">
      <h2 id="card-latest" className="card__title">
        Mis últimas mediciones
      </h2>
      {read.phase === 'loading' && (
        <p className="status" role="status">
          Cargando sus mediciones…
        </p>
      )}
      <ReadNotice phase={read.phase} what="sus últimas mediciones" readAt={read.readAt} online={read.online} onRetry={read.retry} />
      {read.phase === 'empty' && <p className="notice">Aún no tiene mediciones registradas.</p>}
      {readings.length > 0 && (
        <ul className="latest__list">
          {readings.map((r) => (
            <li key={r.key} className={`latest__item latest__item--${r.status}`}>
              <span className="latest__title">{r.title}</span>
              <span className="latest__value">{r.value}</span>
              <span className={`latest__status latest__status--${r.status}`}>
                <span className="latest__icon" aria-hidden="true">
                  {r.status === 'out' ? '!' : r.status === 'in' ? '✓' : '–'}
                </span>
                {r.statusText}
              </span>
              <span className="latest__meta">
                <span className="latest__when">{r.when}</span> {r.status !== 'none' && <span className="latest__range">{r.range}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
