import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Button, Card, Empty, Space, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { AppstoreAddOutlined, PlusOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { PatientTabProps } from '../types';
import { permissionState } from '../../../components/record-access';
import type { Schemas } from '../../../contract';
import { asFilters } from '../../../providers/data';
import { logOnly } from '../../../providers/notices';
import { useInvalidatePaths } from '../../../providers/queries';
import { OrdersTable, NAVIGATION_DELAY_MS } from '../../../components/orders/OrdersTable';
import { OrderStatusTag } from '../../../components/orders/OrderStatusTag';
import { SingleOrderDialog } from '../../../components/orders/SingleOrderDialog';
import { BulkOrderDialog } from '../../../components/orders/BulkOrderDialog';
import { patientDateTime } from '../../../components/order-ui';
import '../../../components/orders/orders.css';
import { SectionTitle } from '../../../components/SectionTitle';
import { ReadState } from '../../../ui/ReadState';

type Order = Schemas['Order'];

/** Tab 'Ordenes' (02 §2.2): create buttons, cards of orders to manage (filter '0'), history table (filter '3'). */
export default function OrdersTab({ patient, active }: PatientTabProps) {
  const navigate = useNavigate();
  const [type, setType] = useState<number | undefined>(undefined);
  const [paging, setPaging] = useState({ page: 1, size: 10 });
  const [dialog, setDialog] = useState<'single' | 'bulk' | null>(null);
  const createAccess = permissionState(patient, 'create_order');
  const canCreate = createAccess.allowed;
  const path = `/patients/${patient.id}/orders`;
  const refresh = useInvalidatePaths();
  const load = () => void refresh(path);

  // Read while the tab is the visible one; showing it again reads afresh. A failed read is said in
  // place (P212, superseding 02 §8's 'only logged'), never as an empty list.
  const cards = useList<Order>({
    resource: path.slice(1),
    filters: asFilters({ filter: '0' }),
    pagination: { currentPage: 1, pageSize: 100 },
    queryOptions: { enabled: active },
    errorNotification: logOnly('órdenes por programar'),
  });
  const table = useList<Order>({
    resource: path.slice(1),
    filters: asFilters({ filter: '3', type }),
    pagination: { currentPage: paging.page, pageSize: paging.size },
    queryOptions: { enabled: active, placeholderData: (previous) => previous },
    errorNotification: logOnly('historial de órdenes'),
  });
  const toManage = cards.result.data;
  const history = { rows: table.result.data, total: table.result.total ?? 0, loading: table.query.isFetching };

  return (
    <div>
      <Space style={{ marginBottom: 16 }} wrap>
        <Tooltip title={createAccess.reason}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canCreate} onClick={() => setDialog('single')}>
            Crear orden
          </Button>
        </Tooltip>
        <Tooltip title={createAccess.reason}>
          <Button icon={<AppstoreAddOutlined />} disabled={!canCreate} onClick={() => setDialog('bulk')}>
            Crear múltiples órdenes
          </Button>
        </Tooltip>
      </Space>
      <SectionTitle>Órdenes por programar</SectionTitle>
      <ReadState
        reads={[cards.query]}
        what="las órdenes por programar"
        isEmpty={toManage.length === 0}
        empty={<Empty description="No tiene órdenes por programar" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      >
        <div className="order-cards">
          {toManage.map((o) => (
            <Card
              key={o.id}
              size="small"
              hoverable
              onClick={() => setTimeout(() => navigate(`/patients/${patient.id}/orders/${o.id}`), NAVIGATION_DELAY_MS)}
              title={
                <Space>
                  {o.order_type_name}
                  <OrderStatusTag order={o} />
                </Space>
              }
            >
              <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 4 }}>
                {o.description}
              </Typography.Paragraph>
              <Typography.Text type="secondary">Creada {patientDateTime(o.created_at, o.time_zone_patient)}</Typography.Text>
            </Card>
          ))}
        </div>
      </ReadState>
      <Space style={{ margin: '8px 0' }}>
        <SectionTitle style={{ margin: 0 }}>Historial</SectionTitle>
        <Select
          allowClear
          placeholder="Tipo"
          style={{ width: 180 }}
          value={type}
          onChange={(v) => {
            setType(v);
            setPaging((p) => ({ ...p, page: 1 }));
          }}
          options={[
            { value: 0, label: 'Signos Vitales' },
            { value: 1, label: 'Medicamentos' },
          ]}
          aria-label="Tipo"
        />
      </Space>
      <ReadState reads={[table.query]} what="el historial de órdenes" isEmpty={history.rows.length === 0}>
        <OrdersTable
          rows={history.rows}
          total={history.total}
          loading={history.loading}
          page={paging.page}
          size={paging.size}
          pageLabel="Órdenes por página"
          onPage={(page, size) => setPaging({ page, size })}
        />
      </ReadState>
      <SingleOrderDialog patientId={patient.id} open={dialog === 'single'} onClose={() => setDialog(null)} onCreated={load} />
      <BulkOrderDialog patient={patient} open={dialog === 'bulk'} onClose={() => setDialog(null)} onCreated={load} />
    </div>
  );
}
