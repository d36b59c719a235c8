import { lazy, Suspense } from 'react';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Typography } from 'antd';
import { BarChartOutlined, DownloadOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { useApiQuery } from '../../providers/calls';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import { indicatorsCsv, monthLabel } from './indicators';

const IndicatorCharts = lazy(() => import('./IndicatorCharts'));

type IndicatorMonth = Schemas['IndicatorMonth'];

/** A share, or 'Sin datos' when nobody was counted (never a 0 % that reads as a collapse). */
const pct = (v: number | null) => (v == null ? 'Sin datos' : `${v.toLocaleString('es-CO', { maximumFractionDigits: 1 })} %`);

function download(months: IndicatorMonth[]) {
  const url = URL.createObjectURL(new Blob([indicatorsCsv(months)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `indicadores-${months.at(-1)?.month ?? ''}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

function Tiles({ m }: { m: IndicatorMonth }) {
  const tiles = [
    {
      title: 'Hipertensión controlada',
      value: pct(m.hypertension_control.percent),
      note: `${m.hypertension_control.controlled} de ${m.hypertension_control.eligible} pacientes con última presión de 90 días bajo 140/90`,
    },
    {
      title: 'Sin lecturas en 90 días',
      value: pct(m.without_readings.percent),
      note: `${m.without_readings.count} de ${m.without_readings.active} pacientes activos`,
    },
    {
      title: 'Glucosa en rango (70–180)',
      value: pct(m.glucose_in_range.percent),
      note: `${m.glucose_in_range.in_range} de ${m.glucose_in_range.readings} glucometrías de ${m.glucose_in_range.patients} pacientes en el mes`,
    },
    {
      title: 'Cumplimiento bajo',
      value: `${m.adherence.low}`,
      note: `de ${m.adherence.total} pacientes; ${m.adherence.medium} medio, ${m.adherence.good} bueno, ${m.adherence.none} sin actividades`,
    },
  ];
  return (
    <Row gutter={[16, 16]}>
      {tiles.map((t) => (
        <Col xs={24} sm={12} lg={6} key={t.title}>
          <Statistic title={t.title} value={t.value} />
          <Typography.Text type="secondary">{t.note}</Typography.Text>
        </Col>
      ))}
    </Row>
  );
}

/**
 * 'Indicadores' (issue 21): the programme indicators of the current month with the count behind
 * each percentage, their 12-month trend and a CSV, whether or not the client has an embedded BI
 * (shown below them when it has).
 */
export function IndicatorsCard({ client }: { client: Schemas['Client'] | undefined }) {
  const query = useApiQuery('/reports/indicators', { errorNotification: false }).query;
  // Kept when a refresh fails (P212): ReadState marks them with when they were read.
  const months = query.data?.data.months ?? [];
  const status = useReadState([query], months.length === 0, 'los indicadores');
  const current = months.at(-1);
  return (
    <Card
      title={
        <>
          <BarChartOutlined /> Indicadores
        </>
      }
      extra={
        <Button icon={<DownloadOutlined />} disabled={!months.length} onClick={() => download(months)}>
          Descargar CSV
        </Button>
      }
    >
      <ReadStateView status={status} loading={<Skeleton active />} empty={<Empty description="Los indicadores aún no se han calculado" />}>
        {current && (
          <>
            <Typography.Paragraph type="secondary" className="dashboard-note">
              {monthLabel(current.month)}
              {current.complete ? '' : ' (mes en curso, se actualiza cada hora)'}
            </Typography.Paragraph>
            <Tiles m={current} />
            <Suspense fallback={<Skeleton active />}>
              <IndicatorCharts months={months} />
            </Suspense>
          </>
        )}
      </ReadStateView>
      {client?.have_metabase && client.metabase_url && (
        <iframe className="dashboard-bi" title="Tablero de indicadores" src={client.metabase_url} />
      )}
    </Card>
  );
}
