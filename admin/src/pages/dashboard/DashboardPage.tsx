import { Link } from 'react-router';
import { Card, Col, Row, Typography } from 'antd';
import { AlertOutlined, SolutionOutlined, TagsOutlined, TeamOutlined } from '@ant-design/icons';
import { useGetIdentity } from '@refinedev/core';
import type { Session } from '../../contract';
import { displayName } from '../../../../contract/rules/names';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession } from '../../session';
import './dashboard.css';

const SHORTCUTS = [
  { to: '/patients', title: 'Pacientes', text: 'Busca y consulta la ficha de tus pacientes', icon: <TeamOutlined /> },
  { to: '/alerts_management', title: 'Gestión de alertas', text: 'Atiende las alertas abiertas', icon: <AlertOutlined /> },
  { to: '/orders', title: 'Gestión de órdenes', text: 'Órdenes de signos vitales y medicamentos', icon: <SolutionOutlined /> },
  { to: '/tags', title: 'Etiquetas', text: 'Agrupa pacientes y configura Glady IA', icon: <TagsOutlined /> },
];

function greeting(hour: number) {
  if (hour < 12) return 'Buenos días';
  if (hour < 19) return 'Buenas tardes';
  return 'Buenas noches';
}

/** Home until the real dashboard (02 §2.12) arrives: a greeting and shortcuts. */
export default function DashboardPage() {
  usePageTitle('Dashboard');
  const { data } = useGetIdentity<Session>();
  const user = data ?? readSession();

  return (
    <div className="dashboard">
      <Card className="dashboard-hello" variant="borderless">
        <Typography.Text className="dashboard-eyebrow">{greeting(new Date().getHours())}</Typography.Text>
        <Typography.Title level={2} className="dashboard-title">
          Hola, {displayName(user?.first_name)}
        </Typography.Title>
        <Typography.Paragraph className="dashboard-client">{user?.client_name}</Typography.Paragraph>
      </Card>

      <Row gutter={[16, 16]}>
        {SHORTCUTS.map((s) => (
          <Col key={s.to} xs={24} sm={12} xl={6}>
            <Link to={s.to} className="dashboard-shortcut">
              <Card hoverable>
                <span className="dashboard-shortcut-icon">{s.icon}</span>
                <Typography.Title level={5} className="dashboard-shortcut-title">
                  {s.title}
                </Typography.Title>
                <Typography.Text type="secondary">{s.text}</Typography.Text>
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
