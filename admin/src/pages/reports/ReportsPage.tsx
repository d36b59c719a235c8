import { Button, Card, Col, DatePicker, Form, Row, Statistic } from 'antd';
import { Select } from '../../crud/form-controls';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { elementName } from '@vigia/contract/rules/alarms';
import { PageHeader } from '../../crud/PageHeader';
import { PRIORITY_COLORS } from '../../components/alerts.data';
import { usePageTitle } from '../../layout/usePageTitle';
import { useApiGetOnDemand, useApiQuery } from '../../providers/calls';
import type { Schemas } from '../../contract';
import './reports.css';
import { countOf } from '@vigia/contract/rules/plural';

/** 03 §3: number-of-hours options and vital-sign groups (a one-element group is named as its element, D6). */
const HOURS = [1, 3, 6, 9, 12, 24] as const;
const GROUPS = [
  { value: 'cardiovascular', label: 'Cardiovascular (frecuencia cardiaca y presión arterial)' },
  { value: 'oxygenation', label: 'Oxigenación (saturación de oxígeno)' },
  { value: 'weight', label: elementName(5) },
  { value: 'glucose', label: elementName(6) },
  { value: 'temperature', label: elementName(7) },
] as const;
const REPORT_FAILED = 'Error al generar el reporte';
const GROUP_REQUIRED = 'Seleccione un grupo de signos vitales';
const DATES_REQUIRED = 'Seleccione al menos una fecha de inicio o de fin.';

type DownloadLink = Schemas['DownloadLink'];
const reportFailed = () => ({ type: 'error' as const, message: REPORT_FAILED });

/** Reportes (03 §2): measurements CSV by previous hours, vital signs by group, status changes by dates, open alerts. */
export default function ReportsPage() {
  usePageTitle('Reportes');
  const { query } = useApiQuery('/reports/client_opened_alerts', { errorNotification: false });
  const metrics = query.data?.data ?? null;
  const getNow = useApiGetOnDemand();
  /** Opens a report's signed link once it arrives (D4); a failure has said 'Error al generar el reporte'. */
  const open = (link: Promise<DownloadLink>) =>
    link.then(
      ({ url }) => void window.open(url, '_blank', 'noopener'),
      () => undefined,
    );

  return (
    <PageHeader title="Reportes">
      <Row gutter={[16, 16]} className="reports-grid">
        <Col xs={24} lg={12}>
          <Card title="Mediciones (CSV)">
            <Form
              layout="vertical"
              onFinish={(v: { hours: (typeof HOURS)[number] }) =>
                open(getNow('/reports/client_measurements', { query: { hours: v.hours }, errorNotification: reportFailed }))
              }
            >
              <Form.Item name="hours" label="Número de Horas anteriores" rules={[{ required: true, message: MESSAGES.required }]}>
                <Select placeholder="Seleccione" options={HOURS.map((h) => ({ value: h, label: countOf(h, 'hora', 'horas') }))} />
              </Form.Item>
              <Button type="primary" htmlType="submit" icon={<DownloadOutlined />}>
                Descargar CSV
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Signos vitales por grupo">
            <Form
              layout="vertical"
              onFinish={(v: { group: (typeof GROUPS)[number]['value'] }) =>
                open(getNow('/reports/vital_signs', { query: { group: v.group }, errorNotification: reportFailed }))
              }
            >
              <Form.Item name="group" label="Grupo de signos vitales" rules={[{ required: true, message: GROUP_REQUIRED }]}>
                <Select placeholder="Seleccione un grupo" options={[...GROUPS]} />
              </Form.Item>
              <Button type="primary" htmlType="submit" icon={<DownloadOutlined />}>
                Descargar CSV
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Cambios de estado de pacientes">
            <Form
              layout="vertical"
              initialValues={{ start: dayjs().subtract(1, 'month'), end: dayjs() }}
              onFinish={(v: { start?: Dayjs | null; end?: Dayjs | null }) =>
                open(
                  getNow('/reports/patient_status_changes', {
                    query: { start_date: v.start?.format('YYYY-MM-DD'), end_date: v.end?.format('YYYY-MM-DD') },
                    errorNotification: reportFailed,
                  }),
                )
              }
            >
              <Row gutter={12}>
                <Col span={12}>
                  <Form.Item
                    name="start"
                    label="Fecha de inicio"
                    dependencies={['end']}
                    rules={[
                      ({ getFieldValue }) => ({
                        validator: async (_, v) => {
                          if (!v && !getFieldValue('end')) throw new Error(DATES_REQUIRED);
                        },
                      }),
                    ]}
                  >
                    <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col span={12}>
                  <Form.Item name="end" label="Fecha de fin">
                    <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
              </Row>
              <Button type="primary" htmlType="submit" icon={<DownloadOutlined />}>
                Descargar CSV
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Alertas abiertas por prioridad">
            <Row gutter={12}>
              <Col span={8}>
                <Statistic title="Alta" value={metrics?.by_priority.high ?? '—'} valueStyle={{ color: '#cf1322' }} />
              </Col>
              <Col span={8}>
                <Statistic title="Media" value={metrics?.by_priority.medium ?? '—'} valueStyle={{ color: PRIORITY_COLORS[2] }} />
              </Col>
              <Col span={8}>
                <Statistic title="Baja" value={metrics?.by_priority.low ?? '—'} valueStyle={{ color: '#389e0d' }} />
              </Col>
            </Row>
          </Card>
        </Col>
      </Row>
    </PageHeader>
  );
}
