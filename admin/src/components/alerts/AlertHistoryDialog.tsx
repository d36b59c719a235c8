import { Empty, List, Modal, Typography } from 'antd';
import { displayName } from '@vigia/contract/rules/names';
import type { Schemas } from '../../contract';
import { formatWhen } from '@vigia/contract/rules/dates';
import { ItemMeta } from '../../ui/ItemMeta';

type Alert = Schemas['Alert'];

/** 'Historial de gestión de alerta' (patient tab) / 'Historial de la Alerta' (manager), 02 §2.7 and §2.9. */
export function AlertHistoryDialog({ alert, title, onClose }: { alert: Alert | null; title: string; onClose: () => void }) {
  return (
    <Modal open={!!alert} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      {alert && alert.entries.length === 0 && <Empty description="Sin historial" />}
      {alert && alert.entries.length > 0 && (
        <>
          <List
            dataSource={alert.entries}
            renderItem={(e) => (
              <List.Item>
                <ItemMeta
                  title={<Typography.Text>{displayName(e.user_name)}</Typography.Text>}
                  description={
                    <>
                      <Typography.Paragraph style={{ margin: 0 }}>{e.description}</Typography.Paragraph>
                      <Typography.Text type="secondary">{formatWhen(e.created_at, alert.time_zone_patient)}</Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
          {alert.status !== 1 && (
            <Typography.Text strong>
              Alerta cerrada por <span>{displayName(alert.closed_by_name ?? alert.entries.at(-1)?.user_name)}</span>
            </Typography.Text>
          )}
        </>
      )}
    </Modal>
  );
}
