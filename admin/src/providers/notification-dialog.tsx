import { useSyncExternalStore } from 'react';
import { Button, List, Modal, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { NOTIFICATION_COLORS as COLORS } from './notification-colors';
import { notificationStore } from './notification-store';
import { ItemMeta } from '../ui/ItemMeta';

/** The dialog that lists the open notifications when there are more than two. */
export default function NotificationDialog() {
  const { items, overflow } = useSyncExternalStore(notificationStore.subscribe, notificationStore.getState);

  return (
    <Modal
      open={overflow && items.length > 0}
      title={`Notificaciones (${items.length})`}
      onCancel={notificationStore.clear}
      footer={
        <Button type="primary" onClick={notificationStore.clear}>
          Entendido
        </Button>
      }
      destroyOnHidden
    >
      <List
        dataSource={items}
        rowKey="key"
        renderItem={(item, index) => (
          <List.Item
            style={{ background: COLORS[item.type].background, padding: '8px 12px', marginBottom: 6 }}
            actions={[
              <Button key="close" type="text" size="small" aria-label="Descartar" onClick={() => notificationStore.removeAt(index)}>
                Descartar
              </Button>,
            ]}
          >
            <ItemMeta
              avatar={
                item.type === 'error' ? (
                  <CloseCircleFilled style={{ color: COLORS.error.accent, fontSize: 20 }} />
                ) : (
                  <CheckCircleFilled style={{ color: COLORS.success.accent, fontSize: 20 }} />
                )
              }
              title={<Typography.Text strong>{item.message}</Typography.Text>}
              description={item.description}
            />
          </List.Item>
        )}
      />
    </Modal>
  );
}
