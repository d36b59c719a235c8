import { Button, Table, Tag } from 'antd';
import { EditOutlined, EyeOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { OrderStatusTag } from './OrderStatusTag';
import { patientDateTime } from '../../components/order-ui';
import type { Schemas } from '../../contract';

type Order = Schemas['Order'];

const PAGE_SIZES = [5, 10, 20];
/** 02 §2.1: detail screens open after 500 ms. */
export const NAVIGATION_DELAY_MS = 500;

/** Orders table shared by the patient's history and 'Gestión de órdenes': 'Ver' for status >= 3, else 'Gestionar'. */
export function OrdersTable({
  rows,
  total,
  loading,
  page,
  size,
  onPage,
  pageLabel,
}: {
  rows: Order[];
  total: number;
  loading: boolean;
  page: number;
  size: number;
  onPage: (page: number, size: number) => void;
  pageLabel: string;
}) {
  const navigate = useNavigate();
  const open = (o: Order) => setTimeout(() => navigate(`/patients/${o.patient.id}/orders/${o.id}`), NAVIGATION_DELAY_MS);
  return (
    <Table<Order>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={rows}
      scroll={{ x: true }}
      pagination={{
        current: page,
        pageSize: size,
        total,
        pageSizeOptions: PAGE_SIZES,
        showSizeChanger: true,
        locale: { items_per_page: pageLabel },
        onChange: onPage,
      }}
      columns={[
        { title: 'Paciente', key: 'patient', render: (_, o) => o.patient.full_name },
        { title: 'Fecha', key: 'created_at', render: (_, o) => patientDateTime(o.created_at, o.time_zone_patient) },
        { title: 'Tipo', key: 'type', render: (_, o) => o.order_type_name },
        {
          title: 'Elemento / Medicamento',
          key: 'what',
          render: (_, o) => (o.order_type === 0 ? o.clinical_element_name : o.medicine_name),
        },
        { title: 'Notificar', key: 'notify', render: (_, o) => (o.notify ? <Tag color="blue">Sí</Tag> : <Tag>No</Tag>) },
        { title: 'Estado', key: 'status', render: (_, o) => <OrderStatusTag order={o} /> },
        {
          title: 'Acciones',
          key: 'actions',
          render: (_, o) =>
            o.status >= 3 ? (
              <Button size="small" icon={<EyeOutlined />} onClick={() => open(o)}>
                Ver
              </Button>
            ) : (
              <Button size="small" icon={<EditOutlined />} onClick={() => open(o)}>
                Gestionar
              </Button>
            ),
        },
      ]}
    />
  );
}
