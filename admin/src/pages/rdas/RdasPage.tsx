import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useInvalidate, useList, type CrudFilter } from '@refinedev/core';
import { Button, Card, DatePicker, Result, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { formatWhen } from '@vigia/contract/rules/dates';
import { PageHeader } from '../../crud/PageHeader';
import { Select } from '../../crud/form-controls';
import { usePageResetOn } from '../../hooks/usePageResetOn';
import { useUrlParams } from '../../hooks/useUrlParams';
import { LinkButton } from '../../layout/LinkButton';
import { usePageTitle } from '../../layout/usePageTitle';
import { FORBIDDEN_REASON, roleAccess } from '../../providers/access';
import { loadFailed } from '../../providers/notices';
import { staffTimeZone } from '../../session';
import { PhoneCards, usePhoneLayout } from '../../ui/PhoneCards';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import {
  RDA_KINDS,
  RDA_STATUSES,
  RdaStatusTag,
  rdaKindText,
  rdaLastError,
  rdaShowPath,
  rdaStatusText,
  type Rda,
  type RdaKind,
  type RdaStatus,
} from '../../components/rda-status';
import { rdaFilterParams, readRdaFilters, type RdaFilters } from '../../components/rda-filters';
import { PatientFilter } from './PatientFilter';
import './rdas.css';

const TITLE = 'RDA enviados';
const PAGE_SIZES = [10, 20, 50];
const count = new Intl.NumberFormat('es-CO');

function crudFilters(f: RdaFilters): CrudFilter[] {
  return Object.entries(f)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => ({ field, operator: 'eq', value }) as CrudFilter);
}

/**
 * RDA enviados, /rdas (issue 51): every RDA the organisation wrote, newest first, with its sending
 * status to the Ministry's platform (IHCE), filtered by status, kind, patient and the days it was
 * written (the organisation's days, as the API reads them); the filters live in the address, so the
 * dashboard's counts link here filtered (/rdas?status=rechazado) and a reload keeps them. A row opens
 * its detail. Read by administrators and clinicians (listRdas: clinical.write), as the API answers.
 */
export default function RdasPage() {
  usePageTitle(TITLE);
  const { allowed } = roleAccess('clinical.write');
  const administers = roleAccess('administer').allowed;
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const phone = usePhoneLayout();
  const timeZone = staffTimeZone();
  const [params, changeParams] = useUrlParams();
  const filters = readRdaFilters(params);
  const setFilters = (next: RdaFilters) => changeParams(rdaFilterParams(next));
  const [page, setPage] = usePageResetOn(JSON.stringify(filters));
  const [pageSize, setPageSize] = useState(20);
  const { query, result } = useList<Rda>({
    resource: 'rdas',
    filters: crudFilters(filters),
    pagination: { currentPage: page, pageSize, mode: 'server' },
    queryOptions: { enabled: allowed, placeholderData: (previous) => previous },
    errorNotification: loadFailed,
  });
  const rows = result.data;
  const status = useReadState([query], rows.length === 0, 'la lista de RDA');
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const emptyText =
    status.phase === 'failed'
      ? 'No fue posible cargar la lista. Pulse «Reintentar» para intentarlo de nuevo.'
      : query.isLoading
        ? 'Cargando…'
        : filtered
          ? 'Ningún RDA coincide con los filtros.'
          : 'Aún no hay RDA. Se escriben al cerrar una teleconsulta y al inscribir a un paciente o cambiar sus antecedentes.';
  const pagination = {
    current: page,
    pageSize,
    total: result.total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES,
    locale: { items_per_page: '/ página' },
    showTotal: (n: number) => `${count.format(n)} RDA`,
    onChange: (p: number, size: number) => {
      setPage(size !== pageSize ? 1 : p);
      setPageSize(size);
    },
  };

  if (!allowed) {
    return (
      <PageHeader title={TITLE}>
        <Card>
          <Result status="403" title="Solo los administradores y el personal clínico ven los RDA" subTitle={FORBIDDEN_REASON} />
        </Card>
      </PageHeader>
    );
  }

  const when = (r: Rda) => formatWhen(r.created_at, timeZone);
  const error = (r: Rda) => rdaLastError(r) ?? '—';
  return (
    <PageHeader
      title={TITLE}
      extra={
        <Space wrap>
          {administers && (
            <LinkButton to="/ihce" icon={<SettingOutlined />}>
              Configurar IHCE
            </LinkButton>
          )}
          <Button icon={<ReloadOutlined />} onClick={() => void invalidate({ resource: 'rdas', invalidates: ['list'] })}>
            Actualizar
          </Button>
        </Space>
      }
    >
      <ReadFailedAlert status={status} />
      <Card>
        <Typography.Paragraph type="secondary">
          El Resumen Digital de Atención (RDA, Resolución 1888 de 2025) que Vigía escribe por cada teleconsulta y por cada paciente, y su
          envío a la plataforma IHCE del Ministerio de Salud. Abra uno para ver el documento y, si la plataforma lo rechazó, cada problema
          que señaló.
        </Typography.Paragraph>
        <div className="rdas-filters" role="search" aria-label="Filtros de RDA">
          <Select
            allowClear
            value={filters.status}
            onChange={(v?: RdaStatus) => setFilters({ ...filters, status: v ?? undefined })}
            placeholder="Todos los estados"
            aria-label="Estado"
            className="rdas-filter"
            options={RDA_STATUSES.map((s) => ({ value: s, label: rdaStatusText(s) }))}
          />
          <Select
            allowClear
            value={filters.kind}
            onChange={(v?: RdaKind) => setFilters({ ...filters, kind: v ?? undefined })}
            placeholder="Todos los tipos"
            aria-label="Tipo"
            className="rdas-filter"
            options={RDA_KINDS.map((k) => ({ value: k, label: rdaKindText(k) }))}
          />
          <PatientFilter value={filters.patient_id} onChange={(id) => setFilters({ ...filters, patient_id: id })} />
          <DatePicker.RangePicker
            className="rdas-filter rdas-filter-dates"
            format="DD/MM/YYYY"
            placeholder={['Desde', 'Hasta']}
            aria-label="Fechas"
            id={{ start: 'rdas-from', end: 'rdas-to' }}
            allowEmpty={[true, true]}
            value={[filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to) : null]}
            onChange={(range) => {
              const [from, to] = (range ?? [null, null]) as [Dayjs | null, Dayjs | null];
              setFilters({ ...filters, from: from?.format('YYYY-MM-DD'), to: to?.format('YYYY-MM-DD') });
            }}
          />
        </div>
        {phone ? (
          <PhoneCards<Rda>
            label="RDA"
            rows={status.phase === 'failed' ? [] : rows}
            rowKey={(r) => r.id}
            loading={query.isLoading}
            empty={emptyText}
            title={(r) => <Link to={rdaShowPath(r.id)}>{`${rdaKindText(r.kind)} · ${r.patient_name ?? `Paciente ${r.patient_id}`}`}</Link>}
            fields={[
              { key: 'status', label: 'Estado', render: (r) => <RdaStatusTag status={r.status} /> },
              { key: 'created', label: 'Fecha', render: when },
              { key: 'attempts', label: 'Intentos', render: (r) => count.format(r.attempts) },
              { key: 'error', label: 'Último error', render: error, hidden: (r) => rdaLastError(r) === null },
            ]}
            pagination={pagination}
          />
        ) : (
          <Table<Rda>
            rowKey="id"
            size="middle"
            tableLayout="auto"
            loading={query.isFetching}
            dataSource={status.phase === 'failed' ? [] : rows}
            pagination={pagination}
            locale={{ emptyText }}
            rowClassName="rdas-row"
            onRow={(r) => ({ onClick: (e) => !(e.target as HTMLElement).closest('a') && navigate(rdaShowPath(r.id)) })}
            columns={[
              {
                title: 'Fecha',
                key: 'created_at',
                render: (_, r) => <Link to={rdaShowPath(r.id)}>{when(r)}</Link>,
              },
              { title: 'Paciente', key: 'patient', render: (_, r) => r.patient_name ?? `Paciente ${r.patient_id}` },
              { title: 'Tipo', key: 'kind', render: (_, r) => rdaKindText(r.kind) },
              { title: 'Estado', key: 'status', render: (_, r) => <RdaStatusTag status={r.status} /> },
              { title: 'Intentos', dataIndex: 'attempts', align: 'right', render: (n: number) => count.format(n) },
              { title: 'Último error', key: 'error', className: 'rdas-error-cell', render: (_, r) => error(r) },
            ]}
          />
        )}
      </Card>
    </PageHeader>
  );
}
