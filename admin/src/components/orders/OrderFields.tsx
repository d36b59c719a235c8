import { Checkbox, Col, Form, InputNumber, Row, Switch } from 'antd';
import { Select } from '../../crud/form-controls';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { MedicineSelect } from './MedicineSelect';
import {
  amountOptions,
  elementOptions,
  frequencyTypeOptions,
  hourOptions,
  timeUnitOptions,
  unitOptions,
  weekdayOptions,
} from '../../components/order-ui';

const required = [{ required: true, message: MESSAGES.required }];

/** The single-order form (02 §2.3, §5) for one type: medication (1) or vital signs (0). */
export function OrderFields({ orderType }: { orderType: 0 | 1 }) {
  const frequencyType = Form.useWatch('frequency_type');
  if (orderType === 1) {
    return (
      <Row gutter={12}>
        <Col span={24}>
          <Form.Item name="medicine_id" label="Medicamento" rules={required}>
            <MedicineSelect />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="amount" label="Cantidad" rules={required}>
            <Select options={amountOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="medication_unit" label="Unidad" rules={required}>
            <Select options={unitOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="frecuency" label="Cada" rules={required}>
            <InputNumber min={1} max={720} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="time_unit" label="Unidad de tiempo" rules={required}>
            <Select options={timeUnitOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="during" label="Duración (días)" rules={required}>
            <InputNumber min={1} max={365} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="permanent" label="Permanente" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name="notify" label="Notificar al paciente" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
    );
  }
  return (
    <Row gutter={12}>
      <Col xs={24} md={12}>
        <Form.Item name="clinical_element" label="Tipo de Toma" rules={required}>
          <Select options={elementOptions} placeholder="Seleccione el signo vital" />
        </Form.Item>
      </Col>
      <Col xs={12} md={6}>
        <Form.Item name="frequency_type" label="Frecuencia" rules={required}>
          <Select options={frequencyTypeOptions} />
        </Form.Item>
      </Col>
      <Col xs={12} md={6}>
        <Form.Item name="during" label={frequencyType === 1 ? 'Duración (semanas)' : 'Duración (días)'} rules={required}>
          <InputNumber min={1} max={365} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      {frequencyType === 1 && (
        <Col span={24}>
          <Form.Item name="days" label="Días de la semana" rules={[{ required: true, type: 'array', min: 1, message: MESSAGES.required }]}>
            <Checkbox.Group options={weekdayOptions} />
          </Form.Item>
        </Col>
      )}
      <Col span={24}>
        <Form.Item name="hours" label="Horas de toma" rules={[{ required: true, type: 'array', min: 1, message: MESSAGES.required }]}>
          <Select mode="multiple" options={hourOptions} placeholder="Seleccione una o más horas" />
        </Form.Item>
      </Col>
      <Col xs={12}>
        <Form.Item name="permanent" label="Permanente" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
      <Col xs={12}>
        <Form.Item name="notify" label="Notificar al paciente" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Col>
    </Row>
  );
}

/** 02 §9 single-order defaults. */
export const SINGLE_ORDER_DEFAULTS = {
  notify: true,
  time_unit: 0,
  frecuency: 1,
  dose: 1,
  during: 1,
  amount: '1',
  medication_unit: 3,
  frequency_type: 0,
  permanent: false,
  hours: ['08:00'],
};

/** 02 §5: daily sends all seven days; otherwise the selected days, sorted. */
export function orderBody(orderType: 0 | 1, v: Record<string, unknown>) {
  if (orderType === 1) {
    const { medicine_id, amount, medication_unit, frecuency, time_unit, during, permanent, notify } = v;
    return { order_type: 1 as const, medicine_id, amount, medication_unit, frecuency, time_unit, during, permanent, notify, dose: 1 };
  }
  const daily = v.frequency_type === 0;
  const days = daily ? [0, 1, 2, 3, 4, 5, 6] : [...((v.days as number[]) ?? [])].sort((a, b) => a - b);
  const { clinical_element, frequency_type, during, hours, permanent, notify } = v;
  return { order_type: 0 as const, clinical_element, frequency_type, during, hours, days, permanent, notify };
}
