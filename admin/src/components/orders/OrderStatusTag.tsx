import { Tag } from 'antd';
import { ORDER_STATUS_COLORS } from '../../components/order-ui';
import type { Schemas } from '../../contract';

type Order = Schemas['Order'];

/** Status chip: name, plus the progress while 'En ejecución' (02 §2.5). */
export function OrderStatusTag({ order }: { order: Pick<Order, 'status' | 'status_name' | 'progress'> }) {
  return (
    <Tag color={ORDER_STATUS_COLORS[order.status]}>
      {order.status_name}
      {order.status === 2 ? ` ${order.progress}%` : ''}
    </Tag>
  );
}
