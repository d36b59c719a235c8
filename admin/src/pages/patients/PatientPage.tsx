import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Card, Col, Result, Row, Skeleton, Tooltip } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useGetIdentity, useInvalidate, useOne } from '@refinedev/core';
import type { Session } from '../../contract';
import { usePageTitle } from '../../layout/usePageTitle';
import type { VigiaHttpError } from '../../providers/errors';
import { readSession, staffTimeZone } from '../../session';
import { formatWhen } from '@vigia/contract/rules/dates';
import { useApiMutation } from '../../providers/calls';
import { serverError, serverErrorOnline, serverSuccess } from '../../providers/notices';
import { usePatientUpdate, type PatientUpdated } from './hooks/usePatientUpdate';
import {
  AlertsCountCard,
  BasicDataCard,
  ClinicHistoryCard,
  ContactCard,
  PrescriptionCard,
  TagsCard,
  type CardDialog,
} from './PatientCards';
import { PatientTabs, visibleTabs } from './PatientTabs';
import type { Patient } from './types';
import './patients.css';
import { permissionState } from '../../components/record-access';

/** Card 7 (encounters) is below the fold: its own chunk, after the six cards. */
const EncountersCard = lazy(() => import('./EncountersCard'));

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

/**
 * Arriving with `?tab=` (a flag of Priorización, a link that names a tab), the tabs are what the
 * user came for: scrolled into view once the record is there, and again while the cards above them
 * settle (the encounters card loads its own chunk and pushes the tabs down), until the user scrolls
 * or 3 s pass.
 */
function useScrollToTabOnArrival(target: React.RefObject<HTMLDivElement | null>, arrivedWithTab: boolean, ready: boolean) {
  const wanted = useRef(arrivedWithTab);
  useEffect(() => {
    const el = target.current;
    if (!ready || !wanted.current || !el) return;
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    const scroll = () => {
      if (!stopped) el.scrollIntoView({ block: 'start' });
    };
    const userEvents = ['wheel', 'touchmove', 'keydown', 'mousedown'] as const;
    for (const e of userEvents) window.addEventListener(e, stop, { passive: true });
    scroll();
    const observer = new ResizeObserver(scroll);
    observer.observe(el.parentElement ?? el);
    const timer = setTimeout(() => {
      wanted.current = false;
      observer.disconnect();
    }, 3000);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const e of userEvents) window.removeEventListener(e, stop);
    };
  }, [target, ready]);
}

/** /patients/:id (01 §2): six cards, their edit dialogs, and the tabs the client has enabled. */
export default function PatientPage() {
  const id = Number(useParams().id);
  // '/patients/abc' names no patient: not asked of the server (it would be /patients/NaN).
  const wellFormed = Number.isSafeInteger(id) && id > 0;
  const [params, setParams] = useSearchParams();
  const { data: identity } = useGetIdentity<Session>();
  const user = identity ?? readSession();
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
  const invalidate = useInvalidate();
  const load = () => void invalidate({ resource: 'patients', id, invalidates: ['detail'] });
  const { save } = usePatientUpdate(id);
  const { mutate: mutatePortal } = useApiMutation();
  usePageTitle(patient?.full_name ?? 'Paciente');
  const tabsRef = useRef<HTMLDivElement>(null);
  useScrollToTabOnArrival(tabsRef, params.has('tab'), !!patient);

  if (!wellFormed) return <NotFoundPage />;
  if (failure && !patient) {
    if (failure.statusCode === 404 || failure.statusCode === 400) return <NotFoundPage />;
    return (
      <Card>
        <Result
          status="warning"
          title="No fue posible cargar la ficha del paciente"
          subTitle={failure.message}
          extra={<Button onClick={() => void query.refetch()}>Reintentar</Button>}
        />
      </Card>
    );
  }
  if (!patient) return <Skeleton active paragraph={{ rows: 10 }} />;

  const tabs = visibleTabs(user?.client_clinical_elements);
  const requested = params.get('tab');
  const activeTab = tabs.some((t) => t.key === requested) ? requested! : tabs[0]?.key;
  const showTab = (key: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', key);
    next.delete('reload');
    setParams(next, { replace: true });
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
          <BasicDataCard patient={patient} userTimeZone={user?.time_zone} open={setDialog} onToggleStatus={toggleStatus} />
        </Col>
        <Col xs={24} lg={12} xxl={7}>
          <ContactCard patient={patient} open={setDialog} />
        </Col>
        <Col xs={24} lg={12} xxl={7}>
          <ClinicHistoryCard patient={patient} open={setDialog} />
        </Col>
        <Col xs={24} lg={12} xxl={10}>
          <PrescriptionCard patient={patient} />
        </Col>
        <Col xs={24} sm={12} xxl={7}>
          <TagsCard patient={patient} open={setDialog} />
        </Col>
        <Col xs={24} sm={12} xxl={7}>
          <AlertsCountCard patient={patient} onOpen={alertsTab} />
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
            <PatientTabs tabs={tabs} activeKey={activeTab} onChange={showTab} patient={patient} />
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
