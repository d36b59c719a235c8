import { Card, Space, Tag, Typography } from 'antd';
import { ClockCircleOutlined, HeartOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useNavigate } from 'react-router';
import { formatElapsed } from '@vigia/contract/rules/alarms';
import { DETAIL_DELAY_MS, PRIORITY_COLORS, PRIORITY_TAG } from '../../components/alerts.data';
import type { Schemas } from '../../contract';
import { formatWhen } from '@vigia/contract/rules/dates';

type Alert = Schemas['Alert'];

/** An open alert as a card (patient tab, manager); opens the detail after 500 ms (02 §2.1). */
export function AlertCard({ alert, showPatient, source }: { alert: Alert; showPatient?: boolean; source: 'patient' | 'management' }) {
  const navigate = useNavigate();
  const open = () => setTimeout(() => navigate(`/patients/${alert.patient.id}/alerts/${alert.id}?source=${source}`), DETAIL_DELAY_MS);
  const ai = alert.type === 3;
  return (
    <Card
      hoverable
      size="small"
      className="alert-card"
      style={{ borderTop: `4px solid ${PRIORITY_COLORS[alert.priority]}` }}
      onClick={open}
      role="link"
    >
      <Space direction="vertical" size={4} style={{ width: '100%' }}>
        <Space wrap>
          <Tag color={PRIORITY_TAG[alert.priority]}>Prioridad {alert.priority_name}</Tag>
          <Tag icon={ai ? <RobotOutlined /> : <HeartOutlined />}>
            {ai ? 'Asistente IA' : alert.clinical_element_name || alert.type_name}
          </Tag>
          {alert.escalated_at && <Tag color="magenta">Escalada</Tag>}
        </Space>
        {showPatient && (
          <Typography.Text strong>
            <UserOutlined /> {alert.patient.full_name}
          </Typography.Text>
        )}
        {alert.type === 0 && alert.alarm ? (
          <>
            <Typography.Text>{alert.alarm.name}</Typography.Text>
            <Typography.Text strong className="alert-card-value">
              {alert.value} {alert.clinical_element_unit}
            </Typography.Text>
            <Typography.Text type="secondary">
              Rango: {alert.alarm.minimum_condition} - {alert.alarm.maximum_condition} {alert.clinical_element_unit}
            </Typography.Text>
          </>
        ) : (
          <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
            {alert.description ?? alert.type_name}
          </Typography.Paragraph>
        )}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          #{alert.id} · {formatWhen(alert.created_at, alert.time_zone_patient)} · <ClockCircleOutlined /> Abierta:{' '}
          {formatElapsed(new Date(alert.created_at), dayjs().toDate())}
        </Typography.Text>
      </Space>
    </Card>
  );
}
