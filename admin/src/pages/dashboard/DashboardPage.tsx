import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { useOne } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { displayName } from '@vigia/contract/rules/names';
import { usePageTitle } from '../../layout/usePageTitle';
import { useStaffIdentity } from '../../providers/identity';
import { useApiQuery } from '../../providers/calls';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import { periodRange, PERIODS } from './periods';
import { IndicatorsCard } from './IndicatorsCard';
import { RdasCard } from './RdasCard';
import { roleAccess } from '../../providers/access';
import './dashboard.css';

const PriorityChart = lazy(() => import('./PriorityChart'));

function greeting(hour: number) {
  if (hour < 12) return 'Buenos días';
  if (hour < 19) return 'Buenas tardes';
  return 'Buenas noches';
}

/** What the priority bars count: alerts raised in the period, open or closed since (not the open ones). */
function raisedIn(period: number, metrics: Schemas['AlertMetrics']): string {
  const total = metrics.by_priority.low + metrics.by_priority.medium + metrics.by_priority.high;
  const when = period === 0 ? 'hoy' : `en los últimos ${period} días`;
  return `${total} ${total === 1 ? 'alerta generada' : 'alertas generadas'} ${when}, abiertas o ya cerradas.`;
}

/**
 * Home dashboard (02 §2.12): open alerts, alerts by priority for a period, the RDA waiting to reach
 * the Ministry (issue 51), the programme indicators and the client's BI frame.
 */
export default function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useStaffIdentity();
  const [period, setPeriod] = useState<number>(30);
  const readsRdas = roleAccess('clinical.write').allowed;
  // A failure is said in the card, with 'Reintentar', and the count is not shown as a number (P212;
  // it left the skeletons loading for ever). No notification.
  const metricsQuery = useApiQuery('/reports/client_alerts_metrics', {
    query: periodRange(period),
    errorNotification: false,
  }).query;
  const metricsState = useReadState([metricsQuery], false, 'las alertas por prioridad');
  const metrics = metricsState.phase === 'ready' || metricsState.phase === 'stale' ? (metricsQuery.data?.data ?? null) : null;
  const unread = metricsState.phase === 'failed';
  const { result: client } = useOne<Schemas['Client']>({
    resource: 'clients',
    id: user?.client_id ?? '',
    queryOptions: { enabled: !!user?.client_id },
    errorNotification: false,
  });

  return (
    <div className="dashboard">
      <Card className="dashboard-hello" variant="borderless">
        <Typography.Text className="dashboard-eyebrow">{greeting(new Date().getHours())}</Typography.Text>
        <Typography.Title level={1} className="dashboard-title">
          Hola, {displayName(user?.first_name)}
        </Typography.Title>
        <Typography.Paragraph className="dashboard-client">{user?.client_name}</Typography.Paragraph>
      </Card>

      <div className="dashboard-period">
        <Segmented
          aria-label="Periodo"
          value={period}
          onChange={(v) => setPeriod(Number(v))}
          options={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
        />
      </div>

      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Link to="/alerts_management" className="dashboard-shortcut">
            <Card hoverable>
              <span className="dashboard-shortcut-icon">
                <AlertOutlined />
              </span>
              <Statistic
                title={unread ? 'Alertas abiertas: no fue posible cargarlas' : `Alertas abiertas (${metrics?.open ?? '…'})`}
                value={metrics?.open ?? (unread ? '—' : 0)}
                loading={!metrics && !unread}
              />
              <Typography.Paragraph type="secondary" className="dashboard-note">
                Sin cerrar hoy, de cualquier fecha.
              </Typography.Paragraph>
              <Typography.Text type="secondary">Ir al gestor de alertas</Typography.Text>
            </Card>
          </Link>
        </Col>
        <Col xs={24} md={16}>
          <Card title="Alertas por Prioridad">
            <ReadFailedAlert status={metricsState} />
            {metrics && (
              <Typography.Paragraph type="secondary" className="dashboard-note">
                {raisedIn(period, metrics)}
              </Typography.Paragraph>
            )}
            {metrics ? (
              <Suspense fallback={<Skeleton active />}>
                <PriorityChart metrics={metrics} />
              </Suspense>
            ) : (
              !unread && <Skeleton active />
            )}
          </Card>
        </Col>
        {/* Whoever may read the RDA list (listRdas: clinical.write) sees what waits to reach the Ministry. */}
        {readsRdas && (
          <Col xs={24}>
            <RdasCard />
          </Col>
        )}
        <Col xs={24}>
          <IndicatorsCard client={client} />
        </Col>
      </Row>
    </div>
  );
}
