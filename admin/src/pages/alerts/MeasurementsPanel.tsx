import { useCallback, useEffect, useState } from 'react';
import { Button, Card, Empty, List, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { Line } from '@ant-design/plots';
import { alertsApi, type AlertDetail, type PatientAlarm } from './alerts.api';
import { PRIORITY_COLORS } from './alerts.data';
import { localTime } from './time';

type Point = { when: string; value: number; series: string };
const BP = [3, 4];
const SERIES: Record<number, string> = { 3: 'Sistólica', 4: 'Diastólica' };
/** The chart waits 500 ms before loading (02 §2.8). */
const CHART_DELAY_MS = 500;

/** 'Mediciones' of a value alert: chart with the rule bands, later readings with the trigger flagged (02 §2.8). */
export default function MeasurementsPanel({ alert }: { alert: AlertDetail }) {
  const element = alert.measurement?.clinical_element ?? alert.clinical_element ?? 1;
  const elements = BP.includes(element) ? BP : [element];
  const [points, setPoints] = useState<Point[] | null>(null);
  const [bands, setBands] = useState<PatientAlarm[]>([]);
  const unit = alert.clinical_element_unit;

  const load = useCallback(async () => {
    setPoints(null);
    await new Promise((r) => setTimeout(r, CHART_DELAY_MS));
    const own: Point[] = [alert.measurement, ...alert.later_measurements]
      .filter((m): m is NonNullable<typeof m> => !!m)
      .map((m) => ({ when: m.when, value: m.value, series: SERIES[m.clinical_element] ?? m.clinical_element_name }));
    try {
      const series = await Promise.all(elements.map((e) => alertsApi.measurements(alert.patient.id, e, alert.created_at)));
      const all = series.flatMap((rows, i) =>
        rows.map((m) => ({ when: m.when, value: Number(m.value), series: SERIES[elements[i]] ?? alert.clinical_element_name })),
      );
      setPoints(all.length ? all : own);
    } catch {
      setPoints(own);
    }
    try {
      const lists = await Promise.all(elements.map((e) => alertsApi.patientAlarms(alert.patient.id, e)));
      setBands(lists.flat());
    } catch {
      setBands([]);
    }
  }, [alert, elements.join(',')]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    void load();
  }, [load]);

  const sorted = (points ?? []).slice().sort((a, b) => a.when.localeCompare(b.when));
  const later = [alert.measurement, ...alert.later_measurements].filter((m): m is NonNullable<typeof m> => !!m);
  return (
    <Card
      size="small"
      title="Mediciones"
      style={{ marginTop: 16 }}
      extra={<Button size="small" icon={<ReloadOutlined />} aria-label="Recargar mediciones" onClick={() => void load()} />}
    >
      <Spin spinning={points === null}>
        {points !== null && sorted.length === 0 ? (
          <Empty description="No existen datos que mostrar" />
        ) : (
          <div style={{ height: 260 }}>
            {points !== null && (
              <Line
                data={sorted.map((p) => ({ ...p, when: new Date(p.when) }))}
                xField="when"
                yField="value"
                colorField="series"
                height={260}
                point={{ shapeField: 'circle', sizeField: 3 }}
                axis={{ x: { title: false, tickCount: 6, labelFormatter: (d: Date) => d.toLocaleDateString('es-CO') }, y: { title: unit } }}
                annotations={bands.map((b) => ({
                  type: 'rangeY',
                  data: [{ y: [b.minimum_condition, b.maximum_condition] }],
                  yField: 'y',
                  style: { fill: PRIORITY_COLORS[b.priority], fillOpacity: 0.08 },
                }))}
              />
            )}
          </div>
        )}
      </Spin>
      <Typography.Title level={5} className="alert-section-title">
        Mediciones posteriores ({alert.later_measurements.length})
      </Typography.Title>
      {later.length === 0 ? (
        <Empty description="No existen datos que mostrar" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          size="small"
          dataSource={later}
          renderItem={(m) => (
            <List.Item className={m.id === alert.measurement?.id ? 'alert-flag' : undefined}>
              <span>{localTime(m.when, alert.time_zone_patient)}</span>
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
