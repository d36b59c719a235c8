import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { Button, Card, Empty, List, Tag, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { readSession } from '../../session';
import { can, isRole } from '@vigia/contract/rules/access';
import { useList } from '@refinedev/core';
import { ReadState } from '../../ui/ReadState';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Patient } from './types';
import { ItemMeta } from '../../ui/ItemMeta';

/**
 * Card 7 of the patient page, in its own chunk, loaded after the six cards. A plain list, not a
 * table, and the two kind labels below rather than the whole contract document: the patient page
 * stays within its JavaScript budget (issue 7). The forms load only with 'Nueva atención'.
 */
const NewEncounterDialog = lazy(() => import('./NewEncounterDialog').then((m) => ({ default: m.NewEncounterDialog })));

type Encounter = Schemas['Encounter'];
const ENCOUNTERS_PAGE = 5;

/** The contract's x-labels of EncounterKind (encounter-kinds.test.ts keeps them equal). */
export const ENCOUNTER_KIND_LABELS: Record<Encounter['kind'], string> = {
  vaccination: 'Vacunación',
  generic: 'Atención general',
  teleconsultation: 'Teleconsulta / telemonitoreo',
};

/** Card 7: the patient's encounters (vaccinations and general), newest first, and 'Nueva atención'. */
export default function EncountersCard({ patient }: { patient: Patient }) {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const { query, result } = useList<Encounter>({
    resource: `patients/${patient.id}/encounters`,
    pagination: { currentPage: page, pageSize: ENCOUNTERS_PAGE },
    // The page shown stays until the next one arrives.
    queryOptions: { placeholderData: (previous) => previous },
    // The card says a failure in place (P212).
    errorNotification: false,
  });
  const list = { loading: query.isFetching, data: query.data ? result.data : null, total: result.total ?? 0 };
  const role = readSession()?.role_name;
  const mayWrite = isRole(role) && can(role, 'clinical.write');
  const deceased = patient.status === 3;
  const reason = deceased
    ? 'El paciente está registrado como fallecido; su ficha no admite cambios.'
    : mayWrite
      ? undefined
      : 'Su rol no permite registrar atenciones';
  return (
    <Card
      className="patient-card"
      title="Atenciones"
      extra={
        <Tooltip title={reason}>
          <Button type="primary" size="small" icon={<PlusOutlined />} disabled={!!reason} onClick={() => setCreating(true)}>
            Nueva atención
          </Button>
        </Tooltip>
      }
    >
      <ReadState reads={[query]} what="las atenciones" isEmpty={(list.data ?? []).length === 0}>
        <List<Encounter>
          size="small"
          loading={list.loading}
          dataSource={list.data ?? []}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin atenciones registradas" /> }}
          pagination={
            list.total > ENCOUNTERS_PAGE
              ? {
                  current: page,
                  pageSize: ENCOUNTERS_PAGE,
                  total: list.total,
                  onChange: setPage,
                  showSizeChanger: false,
                  size: 'small',
                  align: 'end',
                }
              : false
          }
          renderItem={(e) => (
            <List.Item
              className="patient-encounter"
              actions={[
                <Link key="open" to={`/encounters/${e.id}`}>
                  {e.status === 'Realizado' ? 'Ver atención' : 'Continuar'}
                </Link>,
              ]}
            >
              <ItemMeta
                title={
                  <span>
                    <Link to={`/encounters/${e.id}`}>{formatWhen(e.checkout ?? e.created_at, patient.time_zone)}</Link>{' '}
                    <Tag color={e.status === 'Realizado' ? 'green' : 'gold'}>{e.status}</Tag>
                  </span>
                }
                description={
                  <Typography.Text type="secondary">
                    {ENCOUNTER_KIND_LABELS[e.kind] ?? e.kind}
                    {e.medication_name ? ` · ${e.medication_name}` : ''} · Responsable: {e.responsible_name ?? '—'}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      </ReadState>
      {creating && (
        <Suspense fallback={null}>
          <NewEncounterDialog patient={patient} open onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </Card>
  );
}
