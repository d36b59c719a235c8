import { useState } from 'react';
import { useFirstLoad } from '../../hooks/useFirstLoad';
import { useOne, useUpdate } from '@refinedev/core';
import { Alert, Button, Col, Drawer, Form, InputNumber, Row, Skeleton, Tooltip, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { SettingOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { roleAccess } from '../../providers/access';
import { serverError, success } from '../../providers/notices';
import { readSession } from '../../session';
import { TRIAGE_DEFAULTS, type TriageBounds } from '@vigia/contract/rules/triage';
import { SETTING_FIELDS, WEIGHT_FIELDS } from './triage.data';

type Settings = Schemas['TriageSettings'];
const DEFAULTS = TRIAGE_DEFAULTS as unknown as Record<string, number> & { weights: Record<string, number> };

/**
 * The contract's limits as a validation rule with the field's own message. InputNumber's min and
 * max clamp silently on blur (a glucose lower limit of 200 became 120 and was saved as such): a
 * value outside is refused instead, and the drawer does not save until it is corrected.
 */
const withinBounds = (b: TriageBounds): Rule[] => [
  { required: true, message: b.message },
  {
    validator: async (_, value: number | null) => {
      if (value == null) return;
      if (value < b.min || value > b.max || (b.integer && !Number.isInteger(value))) throw new Error(b.message);
    },
  },
];

/** The 'Ajustes' button of Priorización (administrators); the drawer exists only while it is open. */
export function TriageSettingsDrawer() {
  const access = roleAccess('administer');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={access.reason}>
        <Button icon={<SettingOutlined />} disabled={!access.allowed} onClick={() => setOpen(true)}>
          Ajustes
        </Button>
      </Tooltip>
      {open && <SettingsDrawer onClosed={() => setOpen(false)} />}
    </>
  );
}

/** The client's thresholds, window and weights, each with its default beside it, once this opening has read them. */
function SettingsDrawer({ onClosed }: { onClosed: () => void }) {
  const clientId = readSession()?.client_id ?? 0;
  const [open, setOpen] = useState(true);
  const { result: client, query } = useOne<Schemas['Client']>({ resource: 'clients', id: clientId, errorNotification: false });
  const initial = useFirstLoad(client?.triage_settings, query.isFetching);
  const { mutate, mutation } = useUpdate<Schemas['Client']>();
  const [form] = Form.useForm<Settings>();

  const save = (values: Settings) =>
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values: { triage_settings: values },
        meta: { method: 'patch' },
        successNotification: success('Ajustes de priorización guardados. La lista se recalcula en el próximo minuto.'),
        errorNotification: serverError('No fue posible guardar los ajustes.'),
      },
      { onSuccess: () => setOpen(false) },
    );

  return (
    <Drawer
      title="Ajustes de priorización"
      open={open}
      onClose={() => setOpen(false)}
      afterOpenChange={(visible) => !visible && onClosed()}
      width="min(560px, 100vw)"
      extra={
        <Button type="primary" disabled={!initial} loading={mutation.isPending} onClick={() => form.submit()}>
          Guardar
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Umbrales, ventana y puntos de cada señal. Los valores por defecto vienen de TIDE, HEARTS360 y las guías citadas en la documentación
        (docs/triage.md).
      </Typography.Paragraph>
      {query.isError && !initial ? (
        <Alert type="error" showIcon message="No fue posible leer los ajustes del cliente. Cierre y vuelva a intentarlo." />
      ) : !initial ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Form form={form} layout="vertical" initialValues={initial} onFinish={save}>
          <Row gutter={16}>
            {SETTING_FIELDS.map((f) => (
              <Col xs={24} sm={12} key={f.key}>
                <Form.Item name={f.key} label={f.label} extra={`Por defecto: ${DEFAULTS[f.key]} ${f.unit}`} rules={withinBounds(f)}>
                  <InputNumber step={f.step ?? 1} addonAfter={f.unit} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            ))}
          </Row>
          <Typography.Title level={2} className="triage-settings-title">
            Puntos por señal
          </Typography.Title>
          <Row gutter={16}>
            {WEIGHT_FIELDS.map((f) => (
              <Col xs={24} sm={12} key={f.key}>
                <Form.Item
                  name={['weights', f.key]}
                  label={f.label}
                  extra={`Por defecto: ${DEFAULTS.weights[f.key]}`}
                  rules={withinBounds(f)}
                >
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Form>
      )}
    </Drawer>
  );
}
