import { lazy, Suspense, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Col, Row, Space, Tooltip } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { CHARTS } from '@vigia/contract/rules/charts';
import { signsReads } from '../../../charts/measurement-reads';
import { useInvalidatePaths } from '../../../providers/queries';
import { usePrefetchApi } from '../../../providers/calls';
import type { PatientTabProps } from '../types';
import type { Reading } from './MeasurementDialogs';
import { VitalCard } from './VitalCard';
import { recordWriteState } from '../../../components/record-access';

/** The record and delete forms (date picker, form, text area) load when first opened. */
const RecordDialog = lazy(() => import('./MeasurementDialogs').then((m) => ({ default: m.RecordDialog })));
const DeleteDialog = lazy(() => import('./MeasurementDialogs').then((m) => ({ default: m.DeleteDialog })));

/** Tab 'Signos' of the patient page: one chart per vital sign (01 §2). */
export default function MeasurementsTab({ patient, active }: PatientTabProps) {
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<Reading | null>(null);
  // `?chart=heart_rate` (a Signos flag of Priorización): that chart's card is scrolled to and focused.
  const arrivedFor = useSearchParams()[0].get('chart');
  // The server's rule for recording and deleting readings (measurements.service): clinical.write.
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const blocked =
    patient.status === 0
      ? 'El paciente está inactivo y no puede enviar mediciones.'
      : patient.status === 3
        ? 'El paciente está registrado como fallecido.'
        : null;
  const invalidate = useInvalidatePaths();
  const refresh = () => void invalidate(`/patients/${patient.id}/measurements`, `/patients/${patient.id}/alarms`);
  // Every card's reads leave while the tab renders, not once the cards are on screen: the first
  // render of the tab takes ~0.3 s of the main thread (bench, patient page in Chromium). The cards
  // read the same cache entries; afterwards, becoming the visible tab again reloads them (01 §2).
  const prefetch = usePrefetchApi();
  useMemo(() => signsReads(patient.id).forEach((read) => prefetch(read)), [prefetch, patient.id]);

  return (
    <div className="measurements-tab">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'flex-end' }}>
        <Button icon={<ReloadOutlined />} onClick={refresh}>
          Recargar
        </Button>
        <Tooltip title={!canWrite ? reason : blocked}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite || !!blocked} onClick={() => setRecording(true)}>
            Registrar medición
          </Button>
        </Tooltip>
      </Space>
      <Row gutter={[16, 16]}>
        {CHARTS.map((chart) => (
          <Col key={chart.key} xs={24} xl={12}>
            <VitalCard
              chart={chart}
              patientId={patient.id}
              timeZone={patient.time_zone}
              active={active}
              canDelete={canWrite}
              onDelete={setDeleting}
              arrivedFor={arrivedFor === chart.key}
            />
          </Col>
        ))}
      </Row>
      <Suspense fallback={null}>
        {recording && (
          <RecordDialog
            open
            patientId={patient.id}
            onClose={() => setRecording(false)}
            onSaved={() => {
              setRecording(false);
              refresh();
            }}
          />
        )}
        {deleting && (
          <DeleteDialog
            reading={deleting}
            patientId={patient.id}
            timeZone={patient.time_zone}
            onClose={() => setDeleting(null)}
            onDeleted={() => {
              setDeleting(null);
              refresh();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
