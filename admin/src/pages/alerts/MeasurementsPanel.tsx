import { useEffect, useState } from 'react';
import { Button, Card, Empty, List, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useInvalidate } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { useApiQuery } from '../../providers/calls';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import MeasurementChart, { type ChartSeries } from '../../charts/MeasurementChart';
import { SERIES_NAMES, alarmBands, alertRanges } from '@vigia/contract/rules/charts';
import { formatWhen } from '@vigia/contract/rules/dates';
import { SectionTitle } from '../../components/SectionTitle';

type AlertDetail = Schemas['AlertDetail'];
type ElementCode = Schemas['ClinicalElementCode'];
type Point = { when: string; value: number; series: string };
const BP: ElementCode[] = [3, 4];
/** The chart waits 500 ms before loading (02 §2.8). */
const CHART_DELAY_MS = 500;
const DAY_MS = 86_400_000;

/** 02 §9: readings of a window of ±15 days around the alert. */
function readingsWindow(around: string) {
  const at = new Date(around).getTime();
  const day = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { start_at: day(at - 15 * DAY_MS), end_at: day(Math.min(Date.now(), at + 15 * DAY_MS) + DAY_MS) };
}

/** One element's readings (oldest first) and the patient's rules on it; `element` undefined asks nothing. */
function useElementSeries(alert: AlertDetail, element: ElementCode | undefined, ready: boolean) {
  const enabled = ready && element !== undefined;
  const params = { id: alert.patient.id };
  const readings = useApiQuery('/patients/{id}/measurements', {
    params,
    query: { clinical_element: element, order: 'asc', _start: 0, _end: 1000, ...readingsWindow(alert.created_at) },
    queryOptions: { enabled },
    errorNotification: false,
  });
  const rules = useApiQuery('/patients/{id}/alarms', {
    params,
    query: { clinical_element: element },
    queryOptions: { enabled },
    errorNotification: false,
  });
  const answer = readings.query.data?.data;
  return {
    settled: !enabled || (!readings.query.isFetching && !rules.query.isFetching),
    failed: readings.query.isError,
    // Without `format=csv` the answer is the rows (the contract's other answer is a download link).
    rows: Array.isArray(answer) ? answer : [],
    bands: rules.query.isError ? [] : (rules.query.data?.data ?? []),
    read: readings.query,
  };
}

/** 'Mediciones' of a value alert: chart with the rule bands, later readings with the trigger flagged (02 §2.8). */
export default function MeasurementsPanel({ alert }: { alert: AlertDetail }) {
  // The contract types an alert's element as an integer; it is one of the element codes the reads take.
  const element = (alert.measurement?.clinical_element ?? alert.clinical_element ?? 1) as ElementCode;
  const elements = BP.includes(element) ? BP : [element];
  const unit = alert.clinical_element_unit;
  const invalidate = useInvalidate();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setReady(true), CHART_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const first = useElementSeries(alert, elements[0], ready);
  const second = useElementSeries(alert, elements[1], ready);

  const own: Point[] = [alert.measurement, ...alert.later_measurements]
    .filter((m): m is NonNullable<typeof m> => !!m)
    .map((m) => ({ when: m.when, value: m.value, series: SERIES_NAMES[m.clinical_element] ?? m.clinical_element_name }));
  const settled = ready && first.settled && second.settled;
  const fetched = [first, second].flatMap((s, i) =>
    s.rows.map((m) => ({ when: m.when, value: Number(m.value), series: SERIES_NAMES[elements[i]] ?? alert.clinical_element_name })),
  );
  const points: Point[] | null = !settled ? null : first.failed || second.failed || fetched.length === 0 ? own : fetched;
  // The rule that raised the alert is drawn even when it is no longer assigned to the patient.
  const bands = alarmBands(alertRanges([...first.bands, ...second.bands], alert.alarm, element), elements);

  const sorted = (points ?? []).slice().sort((a, b) => a.when.localeCompare(b.when));
  const series: ChartSeries[] = [...new Set(sorted.map((p) => p.series))].map((name) => ({
    name,
    points: sorted.filter((p) => p.series === name).map((p) => ({ when: Date.parse(p.when), value: p.value })),
  }));
  // Readings that could not be read leave the alert's own on the chart, and say so (P212).
  const readState = useReadState(elements.length > 1 ? [first.read, second.read] : [first.read], false, 'las lecturas del paciente');
  const later = [alert.measurement, ...alert.later_measurements].filter((m): m is NonNullable<typeof m> => !!m);
  return (
    <Card
      size="small"
      title="Mediciones"
      style={{ marginTop: 16 }}
      extra={
        <Button
          size="small"
          icon={<ReloadOutlined />}
          aria-label="Recargar mediciones"
          onClick={() => void invalidate({ invalidates: ['all'] })}
        />
      }
    >
      {ready && <ReadFailedAlert status={readState} />}
      <Spin spinning={points === null}>
        {points !== null && sorted.length === 0 ? (
          <Empty description="No existen datos que mostrar" />
        ) : (
          <div style={{ height: 260 }}>
            {points !== null && (
              // The chart of the Signos tab (P102): at most 6 time ticks, the ranges as bands.
              <MeasurementChart series={series} bands={bands} unit={unit} timeZone={alert.time_zone_patient} height={260} />
            )}
          </div>
        )}
      </Spin>
      <SectionTitle className="alert-section-title">Mediciones posteriores ({alert.later_measurements.length})</SectionTitle>
      {later.length === 0 ? (
        <Empty description="No existen datos que mostrar" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          size="small"
          dataSource={later}
          renderItem={(m) => (
            <List.Item className={m.id === alert.measurement?.id ? 'alert-flag' : undefined}>
              <span>{formatWhen(m.when, alert.time_zone_patient)}</span>
              <span>
                <Typography.Text strong>
                  {m.value} {m.clinical_element_unit}
                </Typography.Text>{' '}
                {m.id === alert.measurement?.id && <Tag color="red">Generó la alerta</Tag>}
              </span>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
