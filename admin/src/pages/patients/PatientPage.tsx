import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Card, Col, Row, Skeleton, Tooltip } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useInvalidate, useOne } from '@refinedev/core';
import { usePageTitle } from '../../layout/usePageTitle';
import type { VigiaHttpError } from '../../providers/errors';
import { staffTimeZone } from '../../session';
import { useStaffIdentity } from '../../providers/identity';
import { formatWhen } from '@vigia/contract/rules/dates';
import { useApiMutation, usePrefetchApi } from '../../providers/calls';
import { signsReads } from '../../charts/measurement-reads';
import { serverError, serverErrorOnline, serverSuccess } from '../../providers/notices';
import { usePatientUpdate, type PatientUpdated } from './hooks/usePatientUpdate';
import { useScrollOnArrival } from './hooks/useScrollOnArrival';
import {
  AlertsCountCard,
  BasicDataCard,
  ClinicHistoryCard,
  ContactCard,
  PrescriptionCard,
  TagsCard,
  type CardDialog,
} from './PatientCards';
import { PatientTabs, preloadTab, visibleTabs } from './PatientTabs';
import { AllergiesCard, FamilyHistoryCard } from './StatedHistoryCards';
import type { Patient } from './types';
import './patients.css';
import { permissionState } from '../../components/record-access';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import { lazyLoaded } from '../../ui/loaded-lazy';
import { ENCOUNTERS_CARD } from '../../route-modules';

/** Card 7 (encounters) is below the fold: its own chunk, after the six cards. */
const EncountersCard = lazyLoaded(ENCOUNTERS_CARD);

const NotFoundPage = lazy(() => import('../../components/NotFoundPage'));

/** The cards' edit dialogs load with the first one opened: the record is read far more often than edited. */
const lazyDialog = (
  name: 'EditBasicDialog' | 'ClinicHistoryDialog' | 'EditContactDialog' | 'TagsDialog' | 'InactivateDialog' | 'DeceasedDialog',
) => lazy(() => import('./PatientDialogs').then((m) => ({ default: m[name] })));
const DIALOGS = {
  basic: lazyDialog('EditBasicDialog'),
  history: lazyDialog('ClinicHistoryDialog'),
  contact: lazyDialog('EditContactDialog'),
  tags: lazyDialog('TagsDialog'),
  inactivate: lazyDialog('InactivateDialog'),
  deceased: lazyDialog('DeceasedDialog'),
};

/** /patients/:id (01 §2): six cards, their edit dialogs, and the tabs the client has enabled. */
export default function PatientPage() {
  const id = Number(useParams().id);
  // '/patients/abc' names no patient: not asked of the server (it would be /patients/NaN).
  const wellFormed = Number.isSafeInteger(id) && id > 0;
  const [params, setParams] = useSearchParams();
  const user = useStaffIdentity();
  const [dialog, setDialog] = useState<CardDialog | null>(null);
  // Bumped when the server says the page must start over (2 → 1, deceased): cards and tabs remount.
  const [generation, setGeneration] = useState(0);
  // `?reload=` in the address reads the record afresh (a new key: the skeleton, then the answer).
  const { query, result: patient } = useOne<Patient, VigiaHttpError>({
    resource: 'patients',
    id,
    meta: { reload: params.get('reload') ?? undefined },
    queryOptions: { enabled: wellFormed },
    errorNotification: serverErrorOnline('No fue posible cargar la ficha del paciente'),
  });
  const failure = query.error;
  // A first read that failed is said as every read of the app says it (ui/ReadState), with
  // 'Reintentar' and the offline wording; antd's Result drew it before, 10 KB gzip loaded with every
  // patient page for the rare failure (issue 52's weight before the charts).
  const readStatus = useReadState([query], false, 'la ficha del paciente');
  const invalidate = useInvalidate();
  const load = () => void invalidate({ resource: 'patients', id, invalidates: ['detail'] });
  const { save } = usePatientUpdate(id);
  const { mutate: mutatePortal } = useApiMutation();
  usePageTitle(patient?.full_name ?? 'Paciente');
  const tabsRef = useRef<HTMLDivElement>(null);
  // With `?chart=` too (a Signos flag of Priorización), the chart's card scrolls itself into view.
  useScrollOnArrival(tabsRef, params.has('tab') && !params.has('chart'), !!patient);
  const tabs = visibleTabs(user?.client_clinical_elements);
  const requested = params.get('tab');
  const activeTab = tabs.some((t) => t.key === requested) ? requested! : tabs[0]?.key;
  // The tab shown first loads its file beside the record's read, and Signos its reads too (issue 52):
  // they need only the id, and were otherwise a step after the record, the tab's file and its first
  // render. The cards find them in the cache, fresh (SIGNS_FRESH_MS), and do not read them again.
  const prefetch = usePrefetchApi();
  useEffect(() => {
    if (!wellFormed) return;
    preloadTab(activeTab);
    if (activeTab === 'signs') signsReads(id).forEach((read) => prefetch(read));
  }, [wellFormed, activeTab, id, prefetch]);
  // `?edit=basic|contact` opens that card's edit dialog once the record is read: the link of an RDA
  // gap (a teleconsultation's 'Corregir', issue 51) lands on the field to fix.
  const editRequested = params.get('edit');
  const canEdit = !!patient?.permissions?.edit;
  useEffect(() => {
    if (!patient || (editRequested !== 'basic' && editRequested !== 'contact')) return;
    if (canEdit) setDialog(editRequested);
    const next = new URLSearchParams(params);
    next.delete('edit');
    setParams(next, { replace: true });
  }, [patient, editRequested, canEdit, params, setParams]);

  if (!wellFormed) return <NotFoundPage />;
  if (failure && !patient) {
    if (failure.statusCode === 404 || failure.statusCode === 400) return <NotFoundPage />;
    return (
      <Card className="patient-card">
        <ReadFailedAlert status={readStatus} style={{ marginBottom: 0 }} />
      </Card>
    );
  }
  if (!patient) return <Skeleton active paragraph={{ rows: 10 }} />;

  // From the URL as it is when the tab is clicked, not as this render read it: a click that lands
  // while an earlier change of the URL is being rendered is not undone by it.
  const showTab = (key: string) => {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', key);
        next.delete('reload');
        return next;
      },
      { replace: true },
    );
  };

  const onSaved = (updated: PatientUpdated) => {
    const restart = (patient.status === 2 && updated.status === 1) || updated.status === 3;
    if (restart) setGeneration((g) => g + 1);
  };

  const toggleStatus = async (on: boolean) => {
    if (!on) return setDialog('inactivate');
    await save({ status: 1 }, onSaved);
  };

  const unlockPortal = () =>
    mutatePortal(
      {
        method: 'delete',
        path: '/patients/{id}/portal_lock',
        params: { id: patient.id },
        successNotification: serverSuccess('Acceso al portal desbloqueado'),
        errorNotification: serverError('No fue posible desbloquear el acceso al portal'),
      },
      { onSuccess: load },
    );

  const Dialog = dialog ? DIALOGS[dialog] : null;
  const unlock = permissionState(patient, 'edit');
  const alertsTab = tabs.some((t) => t.key === 'alerts') ? () => showTab('alerts') : undefined;

  return (
    <div className="patient-page" key={generation}>
      <Link to="/patients" className="patient-back">
        <ArrowLeftOutlined /> Pacientes
      </Link>
      {patient.status === 3 && (
        <Alert
          type="info"
          showIcon
          className="patient-banner"
          message="Paciente fallecido"
          description="La ficha es de solo lectura; sus órdenes y actividades fueron canceladas. Los reportes siguen disponibles."
        />
      )}
      {patient.portal_locked_until && (
        <Alert
          type="warning"
          showIcon
          className="patient-banner"
          message="Acceso al portal bloqueado por códigos fallidos"
          description={`El paciente podrá intentarlo de nuevo después del ${formatWhen(patient.portal_locked_until, user?.time_zone || staffTimeZone())}.`}
          action={
            <Tooltip title={unlock.reason}>
              <Button size="small" disabled={!unlock.allowed} onClick={unlockPortal}>
                Desbloquear
              </Button>
            </Tooltip>
          }
        />
      )}
      <Row gutter={[16, 16]} className="patient-cards">
        <Col xs={24} lg={12} xxl={10}>
          <BasicDataCard patient={patient} read={query} userTimeZone={user?.time_zone} open={setDialog} onToggleStatus={toggleStatus} />
        </Col>
        <Col xs={24} lg={12} xxl={7}>
          <ContactCard patient={patient} read={query} open={setDialog} />
        </Col>
        <Col xs={24} lg={12} xxl={7}>
          <ClinicHistoryCard patient={patient} read={query} open={setDialog} />
        </Col>
        <Col xs={24} lg={12} xxl={10}>
          <PrescriptionCard patient={patient} read={query} />
        </Col>
        <Col xs={24} sm={12} xxl={7}>
          <TagsCard patient={patient} read={query} open={setDialog} />
        </Col>
        <Col xs={24} sm={12} xxl={7}>
          <AlertsCountCard patient={patient} onOpen={alertsTab} />
        </Col>
        <Col xs={24} lg={12}>
          <AllergiesCard patient={patient} />
        </Col>
        <Col xs={24} lg={12}>
          <FamilyHistoryCard patient={patient} />
        </Col>
        <Col xs={24}>
          <Suspense fallback={<Card className="patient-card" title="Atenciones" loading />}>
            <EncountersCard patient={patient} />
          </Suspense>
        </Col>
      </Row>
      {activeTab && (
        // The sticky header (64 px) would cover the tabs' top: scrolled to, they stop below it.
        <div ref={tabsRef} className="patient-tabs-anchor" style={{ scrollMarginTop: 80 }}>
          <Card className="patient-tabs-card">
            <PatientTabs tabs={tabs} activeKey={activeTab} onChange={showTab} patient={patient} patientRead={query} />
          </Card>
        </div>
      )}
      {Dialog && (
        <Suspense fallback={null}>
          <Dialog open patient={patient} onClose={() => setDialog(null)} onSaved={onSaved} />
        </Suspense>
      )}
    </div>
  );
}
