import { useState } from 'react';
import { Link } from 'react-router';
import { useList } from '@refinedev/core';
import { Card, Table, Typography } from 'antd';
import { formatWhen } from '@vigia/contract/rules/dates';
import { loadFailed } from '../../../providers/notices';
import { staffTimeZone } from '../../../session';
import { PhoneCards, usePhoneLayout } from '../../../ui/PhoneCards';
import { ReadFailedAlert, useReadState } from '../../../ui/ReadState';
import { RdaStatusTag, rdaKindText, rdaLastError, rdaShowPath, rdaVersionText, type Rda } from '../../../components/rda-status';
import type { PatientTabProps } from '../types';

const count = new Intl.NumberFormat('es-CO');

/** A version and, for a nota aclaratoria, its reason; a replaced one says by which. */
function RdaVersionCell({ rda }: { rda: Rda }) {
  return (
    <div className="rda-version-cell">
      <div>{rdaVersionText(rda)}</div>
      {rda.correction_reason && <Typography.Text type="secondary">Motivo: {rda.correction_reason}</Typography.Text>}
      {rda.replaced_by_id != null && (
        <div>
          <Link to={rdaShowPath(rda.replaced_by_id)}>Ver la versión que la reemplaza</Link>
        </div>
      )}
    </div>
  );
}

/**
 * Tab 'RDA' (issue 51): the patient's Resúmenes Digitales de Atención (GET /rdas?patient_id=), newest
 * first, each with its sending status and a link to the document. A failed read says so (P212).
 */
export default function RdaTab({ patient, active }: PatientTabProps) {
  const [page, setPage] = useState(1);
  const phone = usePhoneLayout();
  const timeZone = staffTimeZone();
  const { query, result } = useList<Rda>({
    resource: 'rdas',
    filters: [{ field: 'patient_id', operator: 'eq', value: patient.id }],
    pagination: { currentPage: page, pageSize: 10, mode: 'server' },
    queryOptions: { enabled: active, placeholderData: (previous) => previous },
    errorNotification: loadFailed,
  });
  const rows = result.data;
  const status = useReadState([query], rows.length === 0, 'los RDA del paciente');
  const failed = status.phase === 'failed';
  const empty = failed ? 'No fue posible cargar los RDA.' : query.isLoading ? 'Cargando…' : 'Este paciente aún no tiene RDA.';
  const pagination = { current: page, pageSize: 10, total: result.total ?? 0, onChange: setPage, hideOnSinglePage: true };
  const when = (r: Rda) => formatWhen(r.created_at, timeZone);
  const open = (r: Rda) => <Link to={rdaShowPath(r.id)}>{`Ver ${rdaKindText(r.kind)} del ${when(r)}`}</Link>;
  return (
    <Card className="patient-card" title="RDA del paciente">
      <Typography.Paragraph type="secondary">
        Los Resúmenes Digitales de Atención (RDA) de este paciente (uno por teleconsulta y los de sus antecedentes declarados) y su envío a
        la plataforma IHCE del Ministerio. Una nota aclaratoria es una versión nueva del mismo documento; las anteriores se conservan.
      </Typography.Paragraph>
      <ReadFailedAlert status={status} />
      {phone ? (
        <PhoneCards<Rda>
          label="RDA del paciente"
          rows={failed ? [] : rows}
          rowKey={(r) => r.id}
          loading={query.isLoading}
          empty={empty}
          title={open}
          fields={[
            { key: 'version', label: 'Versión', render: (r) => <RdaVersionCell rda={r} /> },
            { key: 'status', label: 'Estado', render: (r) => <RdaStatusTag status={r.status} /> },
            { key: 'attempts', label: 'Intentos', render: (r) => count.format(r.attempts) },
            { key: 'error', label: 'Último error', render: (r) => rdaLastError(r), hidden: (r) => rdaLastError(r) === null },
          ]}
          pagination={pagination}
        />
      ) : (
        <Table<Rda>
          rowKey="id"
          size="middle"
          loading={query.isFetching}
          dataSource={failed ? [] : rows}
          pagination={pagination}
          locale={{ emptyText: empty }}
          columns={[
            { title: 'Fecha', key: 'created_at', render: (_, r) => <Link to={rdaShowPath(r.id)}>{when(r)}</Link> },
            { title: 'Tipo', key: 'kind', render: (_, r) => rdaKindText(r.kind) },
            { title: 'Versión', key: 'version', render: (_, r) => <RdaVersionCell rda={r} /> },
            { title: 'Estado', key: 'status', render: (_, r) => <RdaStatusTag status={r.status} /> },
            { title: 'Intentos', dataIndex: 'attempts', align: 'right', render: (n: number) => count.format(n) },
            { title: 'Último error', key: 'error', render: (_, r) => rdaLastError(r) ?? '—' },
          ]}
        />
      )}
    </Card>
  );
}
