import { useState } from 'react';
import { Button, Table, Tag, Typography } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { CLOSE_TYPE_NAMES } from '@vigia/contract/rules/alarms';
import { AlertHistoryDialog } from './AlertHistoryDialog';
import type { Schemas } from '../../contract';
import { formatWhen } from '@vigia/contract/rules/dates';
import { PhoneCards, usePhoneLayout } from '../../ui/PhoneCards';

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
  const phone = usePhoneLayout();
  const status = (a: Alert) => (
    <>
      <Tag color={a.close_type === 'false_alert' ? 'default' : 'success'}>
        {a.close_type ? CLOSE_TYPE_NAMES[a.close_type] : a.status_name}
      </Tag>
      {a.escalated_at && <Tag color="magenta">Escalada</Tag>}
    </>
  );
  const description = (a: Alert) => a.alarm?.name ?? a.description ?? a.type_name;
  const value = (a: Alert) =>
    a.value == null ? <Typography.Text type="secondary">—</Typography.Text> : `${a.value} ${a.clinical_element_unit}`;
  const historyButton = (a: Alert) => (
    <Button size="small" icon={<HistoryOutlined />} onClick={() => setHistory(a)}>
      {manager ? 'Ver historial' : 'Historial'}
    </Button>
  );
  const dialog = (
    <AlertHistoryDialog
      alert={history}
      title={manager ? 'Historial de la Alerta' : 'Historial de gestión de alerta'}
      onClose={() => setHistory(null)}
    />
  );
  if (phone) {
    // On a phone (issue 50) each alert is a card: who and what first, then how it was closed and when.
    return (
      <>
        <PhoneCards<Alert>
          label="Alertas cerradas"
          rows={rows}
          rowKey={(a) => a.id}
          loading={loading}
          empty="No hay alertas cerradas"
          title={(a) => (manager ? a.patient.full_name : description(a))}
          fields={[
            ...(manager ? [{ key: 'description', label: 'Descripción', render: description }] : []),
            { key: 'value', label: 'Valor', render: value },
            { key: 'status', label: 'Estado', render: status },
            { key: 'date', label: 'Fecha', render: (a) => formatWhen(a.created_at, a.time_zone_patient) },
            ...(manager ? [{ key: 'id', label: 'ID', render: (a: Alert) => a.id }] : []),
          ]}
          actions={historyButton}
          pagination={{
            current: page,
            pageSize,
            total,
            pageSizeOptions: [5, 10, 20],
            showSizeChanger: true,
            locale: { items_per_page: '/ página' },
            onChange: onPage,
          }}
        />
        {dialog}
      </>
    );
  }
  const columns = [
    ...(manager ? [{ key: 'id', title: 'ID', dataIndex: 'id' }] : []),
    {
      key: 'status',
      title: 'Estado',
      render: (_: unknown, a: Alert) => status(a),
    },
    { key: 'date', title: 'Fecha', render: (_: unknown, a: Alert) => formatWhen(a.created_at, a.time_zone_patient) },
    ...(manager ? [{ key: 'patient', title: 'Paciente', render: (_: unknown, a: Alert) => a.patient.full_name }] : []),
    {
      key: 'description',
      title: 'Descripción',
      render: (_: unknown, a: Alert) => description(a),
    },
    {
      key: 'value',
      title: 'Valor',
      render: (_: unknown, a: Alert) => value(a),
    },
    {
      key: 'history',
      title: 'Historial',
      render: (_: unknown, a: Alert) => historyButton(a),
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
      {dialog}
    </>
  );
}
