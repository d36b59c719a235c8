import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Card, Col, Row, Segmented, Skeleton, Statistic, Typography } from 'antd';
import { AlertOutlined } from '@ant-design/icons';
import { useGetIdentity, useOne } from '@refinedev/core';
import type { Schemas, Session } from '../../contract';
import { displayName } from '@vigia/contract/rules/names';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession } from '../../session';
import { useApiQuery } from '../../providers/calls';
import { periodRange, PERIODS } from './periods';
import { IndicatorsCard } from './IndicatorsCard';
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

/** Home dashboard (02 §2.12): open alerts, alerts by priority for a period, the programme indicators and the client's BI frame. */
export default function DashboardPage() {
  usePageTitle('Dashboard');
  const { data } = useGetIdentity<Session>();
  const user = data ?? readSession();
  const [period, setPeriod] = useState<number>(30);
  // Failures leave the skeletons in place (02 §8): no notification.
  const metricsQuery = useApiQuery('/reports/client_alerts_metrics', {
    query: periodRange(period),
    errorNotification: false,
  }).query;
  const metrics = metricsQuery.isSuccess ? metricsQuery.data.data : null;
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
              <Statistic title={`Alertas abiertas (${metrics?.open ?? '…'})`} value={metrics?.open ?? 0} loading={!metrics} />
              <Typography.Paragraph type="secondary" className="dashboard-note">
                Sin cerrar hoy, de cualquier fecha.
              </Typography.Paragraph>
              <Typography.Text type="secondary">Ir al gestor de alertas</Typography.Text>
            </Card>
          </Link>
        </Col>
        <Col xs={24} md={16}>
          <Card title="Alertas por Prioridad">
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
              <Skeleton active />
            )}
          </Card>
        </Col>
        <Col xs={24}>
          <IndicatorsCard client={client} />
        </Col>
      </Row>
    </div>
  );
}
