import { useState } from 'react';
import { Button, Table, Tag, Typography } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { CLOSE_TYPE_NAMES } from '@vigia/contract/rules/alarms';
import { AlertHistoryDialog } from './AlertHistoryDialog';
import type { Schemas } from '../../contract';
import { formatWhen } from '@vigia/contract/rules/dates';

type Alert = Schemas['Alert'];

type Props = {
  rows: Alert[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  onPage: (page: number, pageSize: number) => void;
  /** Manager: ID and Paciente columns, 'Ver historial' and dialog 'Historial de la Alerta'. */
  manager?: boolean;
};

/** Closed alerts (02 §2.7 and §2.9): page sizes 5, 10, 20, 'Alertas por página'. */
export function ClosedAlertsTable({ rows, total, page, pageSize, loading, onPage, manager }: Props) {
  const [history, setHistory] = useState<Alert | null>(null);
  const columns = [
    ...(manager ? [{ key: 'id', title: 'ID', dataIndex: 'id' }] : []),
    {
      key: 'status',
      title: 'Estado',
      render: (_: unknown, a: Alert) => (
        <>
          <Tag color={a.close_type === 'false_alert' ? 'default' : 'success'}>
            {a.close_type ? CLOSE_TYPE_NAMES[a.close_type] : a.status_name}
          </Tag>
          {a.escalated_at && <Tag color="magenta">Escalada</Tag>}
        </>
      ),
    },
    { key: 'date', title: 'Fecha', render: (_: unknown, a: Alert) => formatWhen(a.created_at, a.time_zone_patient) },
    ...(manager ? [{ key: 'patient', title: 'Paciente', render: (_: unknown, a: Alert) => a.patient.full_name }] : []),
    {
      key: 'description',
      title: 'Descripción',
      render: (_: unknown, a: Alert) => a.alarm?.name ?? a.description ?? a.type_name,
    },
    {
      key: 'value',
      title: 'Valor',
      render: (_: unknown, a: Alert) =>
        a.value == null ? <Typography.Text type="secondary">—</Typography.Text> : `${a.value} ${a.clinical_element_unit}`,
    },
    {
      key: 'history',
      title: 'Historial',
      render: (_: unknown, a: Alert) => (
        <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistory(a)}>
          {manager ? 'Ver historial' : 'Historial'}
        </Button>
      ),
    },
  ];
  return (
    <>
      <Table<Alert>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: 'No hay alertas cerradas' }}
        pagination={{
          current: page,
          pageSize,
          total,
          pageSizeOptions: [5, 10, 20],
          showSizeChanger: true,
          locale: { items_per_page: '' },
          showTotal: () => 'Alertas por página',
          onChange: onPage,
        }}
      />
      <AlertHistoryDialog
        alert={history}
        title={manager ? 'Historial de la Alerta' : 'Historial de gestión de alerta'}
        onClose={() => setHistory(null)}
      />
    </>
  );
}
