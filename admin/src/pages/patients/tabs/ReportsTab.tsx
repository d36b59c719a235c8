import { useState } from 'react';
import { Button, Card, Col, DatePicker, Form, Row, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { FilePdfOutlined, FileTextOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';
import { openDownload } from '@vigia/contract/ui/open-download';
import { useNotification } from '@refinedev/core';
import type { Schemas } from '../../../contract';
import { apiRead, useApiRead, type ApiRead } from '../../../providers/calls';
import type { PatientTabProps } from '../types';

const REPORT_ERROR = 'Error al generar el reporte';
const ALL = 0;
const ELEMENT_OPTIONS = [
  { value: ALL, label: 'Todos los signos' },
  ...CLINICAL_ELEMENTS.map((e) => ({ value: e.id, label: `${e.name} (${e.unit})` })),
];

type Range = [Dayjs, Dayjs];
/** 01 §2 Reportes: one month back to today. */
const defaultRange = (): Range => [dayjs().subtract(1, 'month'), dayjs()];

function RangeFields({ value, onChange, prefix }: { value: Range; onChange: (r: Range) => void; prefix: string }) {
  return (
    <Row gutter={12}>
      <Col span={12}>
        <Form.Item label="Fecha Inicio" htmlFor={`${prefix}-start`}>
          <DatePicker
            id={`${prefix}-start`}
            format="DD/MM/YYYY"
            allowClear={false}
            style={{ width: '100%' }}
            value={value[0]}
            disabledDate={(d) => d.isAfter(value[1], 'day')}
            onChange={(d) => d && onChange([d, value[1]])}
          />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label="Fecha Fin" htmlFor={`${prefix}-end`}>
          <DatePicker
            id={`${prefix}-end`}
            format="DD/MM/YYYY"
            allowClear={false}
            style={{ width: '100%' }}
            value={value[1]}
            disabledDate={(d) => d.isBefore(value[0], 'day') || d.isAfter(dayjs(), 'day')}
            onChange={(d) => d && onChange([value[0], d])}
          />
        </Form.Item>
      </Col>
    </Row>
  );
}

type DownloadLink = Schemas['DownloadLink'];
type ElementCode = Schemas['ClinicalElementCode'];

/**
 * A download link (D4) read on demand: `fetch` reads it for the current parameters. Its failure
 * notifies through `openDownload`'s error callback, once for every click.
 */
function useDownloadLink(link: ApiRead<DownloadLink | Schemas['Measurement'][]>) {
  const { query: read } = useApiRead(link, { queryOptions: { enabled: false, gcTime: 0 }, errorNotification: false });
  return () =>
    read.refetch().then((r): DownloadLink => {
      if (r.isError || !r.data) throw r.error;
      // The measurements read answers rows without `format=csv`; here it always asks for the link.
      const answer = r.data.data;
      if (Array.isArray(answer)) throw new Error('The answer is not a download link');
      return answer;
    });
}

/** Tab 'Reportes': CSV and PDF downloads of the patient's readings for a period (01 §2, 03 §7). */
export default function ReportsTab({ patient }: PatientTabProps) {
  const { open } = useNotification();
  const [csvRange, setCsvRange] = useState<Range>(defaultRange);
  const [pdfRange, setPdfRange] = useState<Range>(defaultRange);
  const [element, setElement] = useState<number>(ALL);
  const allowed = patient.permissions.get_reports;
  const fail = () => open?.({ type: 'error', message: REPORT_ERROR });
  const day = (d: Dayjs) => d.format('YYYY-MM-DD');
  const csvLink = useDownloadLink(
    apiRead('/patients/{id}/measurements', {
      params: { id: patient.id },
      query: {
        start_at: day(csvRange[0]),
        end_at: day(csvRange[1]),
        // The options are CLINICAL_ELEMENTS' ids, the contract's element codes.
        ...(element === ALL ? {} : { clinical_element: element as ElementCode }),
        format: 'csv',
        order: 'desc',
      },
    }),
  );
  const pdfLink = useDownloadLink(
    apiRead('/patients/{id}/show_pdf', { params: { id: patient.id }, query: { start_at: day(pdfRange[0]), end_at: day(pdfRange[1]) } }),
  );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card
          title={
            <>
              <FileTextOutlined /> Reporte CSV
            </>
          }
        >
          <Typography.Paragraph type="secondary">
            Todas las mediciones del periodo, una por fila, para abrir en una hoja de cálculo.
          </Typography.Paragraph>
          <Form layout="vertical">
            <RangeFields prefix="csv" value={csvRange} onChange={setCsvRange} />
            <Form.Item label="Elemento Clínico" htmlFor="csv-element">
              <Select id="csv-element" value={element} onChange={setElement} options={ELEMENT_OPTIONS} />
            </Form.Item>
            <Button type="primary" icon={<FileTextOutlined />} disabled={!allowed} onClick={() => void openDownload(csvLink, fail, 'file')}>
              Descargar CSV
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card
          title={
            <>
              <FilePdfOutlined /> Reporte PDF
            </>
          }
        >
          <Typography.Paragraph type="secondary">
            Datos del paciente, una gráfica y las lecturas de cada signo vital del periodo.
          </Typography.Paragraph>
          <Form layout="vertical">
            <RangeFields prefix="pdf" value={pdfRange} onChange={setPdfRange} />
            <Button type="primary" icon={<FilePdfOutlined />} disabled={!allowed} onClick={() => void openDownload(pdfLink, fail)}>
              Descargar PDF
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
