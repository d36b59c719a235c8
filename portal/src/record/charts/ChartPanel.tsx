import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import {
  CHART_EMPTY,
  CHART_LOAD_ERROR,
  PORTAL_LAST_READINGS,
  PRIORITIES,
  SERIES_NAMES,
  alarmBands,
  defaultLatest,
  latestOptions,
  latestPoints,
  pairBloodPressure,
  type AlarmRange,
  type ChartPoint,
} from '@vigia/contract/rules/charts';
import { readPhase } from '@vigia/contract/rules/reads';
import { apiRequest } from '../../api';
import { ReadNotice, useOnline } from '../../ReadNotice';
import { readSession } from '../../session';
import { formatReading, formatWhen } from './format';

const ALARMS_FAILED = 'No fue posible cargar los rangos de alarma; la gráfica se muestra sin ellos.';

// The plotting library is a chunk of its own, fetched the first time a chart is opened.
const MeasurementChart = lazy(() => import('./MeasurementChart'));

interface Spec {
  key: string;
  title: string;
  elements: readonly number[];
  unit: string;
}

interface Reading {
  when: string;
  value: number;
  clinical_element: number;
}

/** The last readings read (kept when a later read fails, P212), when, and whether the ranges could be read. */
type Loaded = { byElement: Map<number, ChartPoint[]>; alarms: AlarmRange[]; alarmsFailed: boolean; readAt: number };
type Attempt = 'loading' | 'failed' | 'done';

async function fetchSeries(patientId: number, token: string, element: number): Promise<ChartPoint[]> {
  const query = new URLSearchParams({ clinical_element: String(element), order: 'asc' });
  const rows = await apiRequest<Reading[]>('GET', `/patients/${patientId}/measurements?${query}`, { token });
  return rows.map((r) => ({ when: new Date(r.when).getTime(), value: Number(r.value) }));
}

/** Bands are a help, not a reason to hide the readings: a failure leaves them out, and says so. */
async function fetchAlarms(patientId: number, token: string, element: number): Promise<AlarmRange[] | null> {
  try {
    return await apiRequest<AlarmRange[]>('GET', `/patients/${patientId}/alarms?clinical_element=${element}`, { token });
  } catch {
    return null;
  }
}

/** One accordion section of the portal (03 §2): loads its readings only when first opened. */
export function ChartPanel({ spec, patientId, timeZone }: { spec: Spec; patientId: number; timeZone: string }) {
  const [open, setOpen] = useState(false);
  const [load, setLoad] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const online = useOnline();
  const [latest, setLatest] = useState<number | null>(null);
  const bodyId = useId();

  const fetchAll = useCallback(async () => {
    const session = readSession();
    if (!session) return;
    setAttempt('loading');
    try {
      // Blood pressure has a range per element: the diastolic one too, not only the systolic.
      const [series, alarms] = await Promise.all([
        Promise.all(spec.elements.map((e) => fetchSeries(patientId, session.token, e))),
        Promise.all(spec.elements.map((e) => fetchAlarms(patientId, session.token, e))),
      ]);
      setLoad({
        byElement: new Map(spec.elements.map((e, i) => [e, series[i]])),
        alarms: alarms.flatMap((a) => a ?? []),
        alarmsFailed: alarms.some((a) => a === null),
        readAt: Date.now(),
      });
      setAttempt('done');
    } catch {
      setAttempt('failed');
    }
  }, [patientId, spec.elements]);

  useEffect(() => {
    if (open && attempt === null) void fetchAll();
  }, [open, attempt, fetchAll]);

  const view = useMemo(() => {
    if (!load) return null;
    const first = load.byElement.get(spec.elements[0]) ?? [];
    const total = first.length;
    const n = latest ?? defaultLatest(total);
    const isPressure = spec.elements.length === 2;
    const pairs = isPressure ? pairBloodPressure(first, load.byElement.get(spec.elements[1]) ?? []) : null;
    const series = spec.elements.map((e) => ({
      name: SERIES_NAMES[e] ?? spec.title,
      points: latestPoints(load.byElement.get(e) ?? [], n),
    }));
    const rows = isPressure
      ? (pairs ?? [])
          .slice(-PORTAL_LAST_READINGS)
          .reverse()
          .map((p) => ({ when: p.when, text: `${formatReading(p.systolic)}/${formatReading(p.diastolic)} ${spec.unit}` }))
      : latestPoints(first, PORTAL_LAST_READINGS)
          .reverse()
          .map((p) => ({ when: p.when, text: `${formatReading(p.value)} ${spec.unit}` }));
    return {
      total,
      n,
      options: latestOptions(total),
      series,
      rows,
      mismatch: isPressure && pairs === null,
      bands: alarmBands(load.alarms, spec.elements),
    };
  }, [load, latest, spec]);
  const phase = readPhase({ hasData: !!view, empty: view?.total === 0, failed: attempt === 'failed', offline: !online });
  const shown = phase === 'ready' || phase === 'stale' ? view : null;

  return (
    <section className={`accordion__item${open ? ' accordion__item--open' : ''}`}>
      <h3 className="accordion__heading">
        <button type="button" className="accordion__toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((o) => !o)}>
          <span>{spec.title}</span>
          <span className="accordion__unit">{spec.unit}</span>
          <span className="accordion__chevron" aria-hidden="true" />
        </button>
      </h3>
      {open && (
        <div id={bodyId} className="accordion__body">
          <div className="chart-toolbar">
            {shown && shown.options.length > 0 && (
              <label className="chart-toolbar__latest">
                Mostrar últimos
                <select value={shown.n} onChange={(e) => setLatest(Number(e.target.value))}>
                  {shown.options.map((o) => (
                    <option key={o} value={o}>
                      {o === shown.total ? `${o} (todos)` : o}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <button
              type="button"
              className="button button--ghost chart-toolbar__reload"
              onClick={() => void fetchAll()}
              disabled={attempt === 'loading'}
            >
              Recargar
            </button>
          </div>
          {phase === 'loading' && (
            <p className="status" role="status">
              Cargando…
            </p>
          )}
          <ReadNotice
            phase={phase}
            what={`las lecturas de ${spec.title}`}
            readAt={load?.readAt ?? 0}
            online={online}
            text={CHART_LOAD_ERROR}
            onRetry={() => void fetchAll()}
          />
          {shown && load?.alarmsFailed && (
            <ReadNotice
              phase="failed"
              what="los rangos de alarma"
              readAt={load.readAt}
              online
              text={ALARMS_FAILED}
              onRetry={() => void fetchAll()}
            />
          )}
          {phase === 'empty' && <p className="notice">{CHART_EMPTY}</p>}
          {shown && shown.total > 0 && (
            <>
              {shown.mismatch ? (
                <p className="notice">Las lecturas sistólicas y diastólicas no coinciden; no es posible dibujar la gráfica.</p>
              ) : (
                <Suspense fallback={<div className="chart-placeholder">Cargando gráfica…</div>}>
                  <div className="chart">
                    <MeasurementChart
                      title={`Gráfica de ${spec.title}`}
                      series={shown.series}
                      bands={shown.bands}
                      unit={spec.unit}
                      timeZone={timeZone}
                      height={220}
                    />
                  </div>
                </Suspense>
              )}
              <ul className="legend" aria-label="Prioridades de las alarmas">
                {[3, 2, 1].map((p) => (
                  <li key={p}>
                    <span className="legend__swatch" style={{ background: PRIORITIES[p].color }} aria-hidden="true" />
                    {PRIORITIES[p].label}
                  </li>
                ))}
              </ul>
              <table className="readings">
                <caption>Últimas lecturas</caption>
                <thead>
                  <tr>
                    <th scope="col">Fecha</th>
                    <th scope="col">Valor</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.rows.map((r) => (
                    <tr key={r.when}>
                      <td>{formatWhen(r.when, timeZone)}</td>
                      <td>{r.text}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </div>
      )}
    </section>
  );
}
