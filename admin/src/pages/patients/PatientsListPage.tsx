import { lazy, Suspense, useState } from 'react';
import { useList } from '@refinedev/core';
import { ReadState } from '../../ui/ReadState';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Input, Pagination, Select, Space, Table, Tabs, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ApiOutlined, EyeOutlined, FilterOutlined, UserAddOutlined } from '@ant-design/icons';
import { PageHeader } from '../../crud/PageHeader';
import { ColorChip } from '../../crud/ColorChip';
import { usePageTitle } from '../../layout/usePageTitle';
import { useMediaQuery } from '../../layout/useMediaQuery';
import type { Schemas } from '../../contract';
import { asFilters } from '../../providers/data';
import { serverError } from '../../providers/notices';
import { roleAccess } from '../../providers/access';
import { useClientTags } from '../../hooks/useClientTags';
import { PatientCardGrid, PatientSearchResults } from './PatientSearchResults';
import { PatientStatusTag } from './PatientStatusTag';
import './patients.css';
import { countOf } from '@vigia/contract/rules/plural';
import { usePageResetOn } from '../../hooks/usePageResetOn';

type PatientSummary = Schemas['PatientSummary'];

const NewPatientDialog = lazy(() => import('./NewPatientDialog'));

/** 01 §2: Activos (1) and Inactivos (0); P41 adds Incompletos (2) and Fallecidos (3) so every patient is reachable. */
const STATUS_TABS = [
  { key: '1', label: 'Activos' },
  { key: '0', label: 'Inactivos' },
  { key: '2', label: 'Incompletos' },
  { key: '3', label: 'Fallecidos' },
];
const PAGE_SIZES = [20, 50, 100];

const columns: ColumnsType<PatientSummary> = [
  { title: 'Estado', dataIndex: 'status', width: 104, render: (s: number) => <PatientStatusTag status={s} /> },
  {
    title: <span className="vigia-sr-only">Dispositivo</span>,
    dataIndex: 'gateway',
    width: 40,
    render: (g: boolean) =>
      g ? (
        <Tooltip title="Tiene dispositivo asignado">
          <ApiOutlined aria-label="Tiene dispositivo asignado" className="patients-gateway" />
        </Tooltip>
      ) : null,
  },
  {
    title: 'Nombre',
    dataIndex: 'full_name',
    width: 290,
    render: (name: string, p) => (
      <div>
        <Link to={`/patients/${p.id}`}>{name}</Link>
        {p.tags.length > 0 && (
          <div className="patients-row-tags">
            {p.tags.map((t) => (
              <ColorChip key={t.id} color={t.color}>
                {t.name}
              </ColorChip>
            ))}
          </div>
        )}
      </div>
    ),
  },
  { title: 'N° Documento', dataIndex: 'nid', width: 130, render: (nid: string, p) => <span title={p.id_type_name}>{nid}</span> },
  { title: 'Edad', dataIndex: 'age', width: 70, responsive: ['sm'] },
  {
    title: 'Teléfono',
    dataIndex: 'cellphone',
    width: 150,
    responsive: ['md'],
    render: (c: string | null, p) => (c ? `${p.prefix ?? ''} ${c}`.trim() : '—'),
  },
  {
    title: 'E-mail',
    dataIndex: 'email',
    width: 210,
    responsive: ['lg'],
    ellipsis: { showTitle: true },
    render: (e: string | null) => e ?? '—',
  },
  {
    title: <span className="vigia-sr-only">Ver</span>,
    key: 'view',
    width: 56,
    render: (_, p) => (
      <Tooltip title="Ver ficha">
        <Link to={`/patients/${p.id}`} aria-label={`Ver la ficha de ${p.full_name}`}>
          <EyeOutlined />
        </Link>
      </Tooltip>
    ),
  },
];

/** Pacientes (01 §2): status tabs, tag filter and pages of 20/50/100; with `q`, mini cards. */
export default function PatientsListPage({ newPatient = false }: { newPatient?: boolean }) {
  usePageTitle('Pacientes');
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const status = STATUS_TABS.some((t) => t.key === params.get('status')) ? params.get('status')! : '1';
  const tags = useClientTags();
  const [tagDraft, setTagDraft] = useState<number[]>([]);
  const [tagFilter, setTagFilter] = useState<number[]>([]);
  const [pageSize, setPageSize] = useState(20);
  // On a phone the table's columns do not fit: the same mini cards as the search show each patient.
  const phone = useMediaQuery('(max-width: 575px)');

  // A new search, tab or tag filter starts again at page 1.
  const filterKey = `${q}|${status}|${tagFilter.join()}`;
  const [page, setPage] = usePageResetOn(filterKey);

  const { query, result } = useList<PatientSummary>({
    resource: 'patients',
    pagination: { currentPage: page, pageSize },
    filters: asFilters({
      q: q || undefined,
      status: q ? undefined : status,
      tags: !q && tagFilter.length ? tagFilter.join(',') : undefined,
    }),
    // The rows shown stay until the next page arrives.
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar los pacientes'),
  });
  // A failed read keeps the rows it had (marked as such by ReadState), never an empty list (P212).
  const rows = result.data;
  const total = result.total ?? 0;
  const loading = query.isFetching;

  const setQuery = (text: string) => {
    const next = new URLSearchParams(params);
    if (text.trim()) next.set('q', text.trim());
    else next.delete('q');
    setParams(next);
  };

  const pager = (
    <Pagination
      current={page}
      pageSize={pageSize}
      total={total}
      pageSizeOptions={PAGE_SIZES}
      showSizeChanger
      showTotal={(n) => countOf(n, 'paciente', 'pacientes')}
      locale={{ items_per_page: '/ página', jump_to: 'Ir a', page: 'Página', prev_page: 'Página anterior', next_page: 'Página siguiente' }}
      onChange={(p, size) => {
        setPage(size !== pageSize ? 1 : p);
        setPageSize(size);
      }}
      className="patients-pager"
    />
  );

  const createAccess = roleAccess('patients.create');
  return (
    <PageHeader
      title="Pacientes"
      extra={
        <Tooltip title={createAccess.reason}>
          <Button type="primary" icon={<UserAddOutlined />} disabled={!createAccess.allowed} onClick={() => navigate('/patients/new')}>
            Nuevo paciente
          </Button>
        </Tooltip>
      }
    >
      <Input.Search
        key={q}
        defaultValue={q}
        placeholder="Buscar por nombre o número de documento"
        aria-label="Buscar paciente por nombre o documento"
        allowClear
        enterButton="Buscar"
        onSearch={setQuery}
        className="patients-search"
      />
      {q ? (
        <>
          <Typography.Paragraph className="patients-results-title">
            Resultados para «{q}» <Typography.Link onClick={() => setQuery('')}>Ver todos los pacientes</Typography.Link>
          </Typography.Paragraph>
          <ReadState reads={[query]} what="los pacientes" isEmpty={rows.length === 0}>
            <PatientSearchResults rows={rows} loading={loading} onAdvanced={() => setQuery('')} />
            {total > 0 && pager}
          </ReadState>
        </>
      ) : (
        <>
          <Tabs
            activeKey={status}
            items={STATUS_TABS}
            onChange={(key) => {
              const next = new URLSearchParams(params);
              next.set('status', key);
              setParams(next, { replace: true });
            }}
          />
          <Space.Compact className="patients-tag-filter">
            <Select
              mode="multiple"
              allowClear
              placeholder="Etiquetas"
              aria-label="Etiquetas a filtrar"
              value={tagDraft}
              onChange={setTagDraft}
              options={tags.map((t) => ({ value: t.id, label: t.name }))}
              optionFilterProp="label"
              maxTagCount="responsive"
              className="patients-tag-select"
            />
            <Button icon={<FilterOutlined />} onClick={() => setTagFilter(tagDraft)}>
              Filtrar Etiquetas
            </Button>
          </Space.Compact>
          <ReadState reads={[query]} what="los pacientes" isEmpty={rows.length === 0}>
            {phone ? (
              <PatientCardGrid rows={rows} loading={loading} empty="No hay pacientes en esta lista" />
            ) : (
              <Table<PatientSummary>
                rowKey="id"
                size="middle"
                columns={columns}
                dataSource={rows}
                loading={loading}
                pagination={false}
                scroll={{ x: 960 }}
                tableLayout="fixed"
                locale={{ emptyText: 'No hay pacientes en esta lista' }}
              />
            )}
            {pager}
          </ReadState>
        </>
      )}
      {newPatient && (
        <Suspense fallback={null}>
          <NewPatientDialog open onClose={() => navigate('/patients', { replace: true })} />
        </Suspense>
      )}
    </PageHeader>
  );
}
