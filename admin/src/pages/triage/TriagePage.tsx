import { useState } from 'react';
import { useList } from '@refinedev/core';
import { Link, useNavigate } from 'react-router';
import { Descriptions, Input, Pagination, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PageHeader } from '../../crud/PageHeader';
import { ColorChip } from '../../crud/ColorChip';
import { usePageTitle } from '../../layout/usePageTitle';
import type { Schemas } from '../../contract';
import { asFilters } from '../../providers/data';
import { serverError } from '../../providers/notices';
import { useClientTags } from '../../hooks/useClientTags';
import { staffTimeZone } from '../../session';
import { countOf } from '@vigia/contract/rules/plural';
import { formatWhen } from '@vigia/contract/rules/dates';
import { ORDER_ELEMENT_NAMES } from '@vigia/contract/rules/activities';
import { TRIAGE_FLAG_NAMES, TRIAGE_FLAGS, type TriageFlagCode } from '@vigia/contract/rules/triage';
import { figureName, formatFigure } from './triage.data';
import { TriageSettingsDrawer } from './TriageSettingsDrawer';
import './triage.css';
import { usePageResetOn } from '../../hooks/usePageResetOn';

type TriageItem = Schemas['TriageItem'];
type TriageFlag = Schemas['TriageFlag'];

const PAGE_SIZES = [20, 50, 100];

/** The patient page on the tab that explains the flag. */
const flagLink = (item: TriageItem, flag: TriageFlag | undefined) => `/patients/${item.id}${flag ? `?tab=${flag.tab}` : ''}`;

function FlagList({ item }: { item: TriageItem }) {
  if (!item.flags.length) return <Typography.Text type="secondary">Sin señales en los últimos 14 días</Typography.Text>;
  return (
    <ul className="triage-flags">
      {item.flags.map((f, i) => (
        <li key={`${f.code}-${i}`}>
          <Link to={flagLink(item, f)} onClick={(e) => e.stopPropagation()}>
            {f.label}
          </Link>{' '}
          <Typography.Text type="secondary">(+{f.points})</Typography.Text>
        </li>
      ))}
    </ul>
  );
}

/** The figures behind each flag, shown when the row is expanded. */
function FlagFigures({ item }: { item: TriageItem }) {
  return (
    <div className="triage-figures">
      {item.flags.map((f, i) => (
        <Descriptions
          key={`${f.code}-${i}`}
          size="small"
          column={{ xs: 1, sm: 2, md: 4 }}
          title={
            f.clinical_element != null && f.code === 'out_of_range'
              ? `${TRIAGE_FLAG_NAMES[f.code]}: ${ORDER_ELEMENT_NAMES[f.clinical_element] ?? ''}`
              : TRIAGE_FLAG_NAMES[f.code]
          }
          items={Object.entries(f.figures).map(([key, value]) => ({
            key,
            label: figureName(key),
            children: formatFigure(key, value, staffTimeZone()),
          }))}
        />
      ))}
    </div>
  );
}

const columns: ColumnsType<TriageItem> = [
  {
    title: 'Puntaje',
    dataIndex: 'score',
    width: 96,
    render: (score: number) => <Tag className={score > 0 ? 'triage-score triage-score-on' : 'triage-score'}>{score}</Tag>,
  },
  {
    title: 'Paciente',
    key: 'patient',
    width: 260,
    render: (_, item) => (
      <div>
        <Link to={flagLink(item, item.flags[0])} onClick={(e) => e.stopPropagation()}>
          {item.patient.full_name}
        </Link>
        <div className="triage-nid">{item.patient.nid}</div>
        {item.patient.tags.length > 0 && (
          <div className="triage-tags">
            {item.patient.tags.map((t) => (
              <ColorChip key={t.id} color={t.color}>
                {t.name}
              </ColorChip>
            ))}
          </div>
        )}
      </div>
    ),
  },
  { title: 'Señales de los últimos 14 días', key: 'flags', render: (_, item) => <FlagList item={item} /> },
  {
    title: 'Última lectura',
    dataIndex: 'last_reading_at',
    width: 150,
    responsive: ['md'],
    render: (at: string | null) => (at ? formatWhen(at, staffTimeZone()) : 'Sin lecturas'),
  },
];

/**
 * 'Priorización' (issue 21): every active patient ranked by the flags of the last 14 days; a row
 * opens the patient page on the tab of its first flag, each flag links to its own tab, and
 * expanding a row shows the figures behind each flag.
 */
export default function TriagePage() {
  usePageTitle('Priorización');
  const navigate = useNavigate();
  const tags = useClientTags();
  const [flag, setFlag] = useState<TriageFlagCode | undefined>();
  const [tagFilter, setTagFilter] = useState<number[]>([]);
  const [q, setQ] = useState('');
  const [pageSize, setPageSize] = useState(20);

  const filterKey = `${q}|${flag ?? ''}|${tagFilter.join()}`;
  const [page, setPage] = usePageResetOn(filterKey);

  const { query, result } = useList<TriageItem>({
    resource: 'triage',
    pagination: { currentPage: page, pageSize },
    filters: asFilters({ q: q || undefined, flag, tags: tagFilter.length ? tagFilter.join(',') : undefined }),
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar la priorización'),
  });
  const rows = query.isError ? [] : result.data;
  const total = query.isError ? 0 : (result.total ?? 0);

  return (
    <PageHeader title="Priorización" extra={<TriageSettingsDrawer />}>
      <Typography.Paragraph type="secondary" className="triage-intro">
        Pacientes activos ordenados por las señales de sus lecturas, alertas, órdenes y actividades de los últimos 14 días. Haga clic en una
        fila para abrir la ficha en la pestaña que explica su primera señal; expándala para ver las cifras.
      </Typography.Paragraph>
      <Space wrap className="triage-filters">
        <Input.Search
          placeholder="Buscar por nombre o número de documento"
          aria-label="Buscar paciente por nombre o documento"
          allowClear
          enterButton="Buscar"
          onSearch={(text) => setQ(text.trim())}
          className="triage-search"
        />
        <Select
          allowClear
          placeholder="Señal"
          aria-label="Señal a filtrar"
          value={flag}
          onChange={setFlag}
          options={TRIAGE_FLAGS.map((code) => ({ value: code, label: TRIAGE_FLAG_NAMES[code] }))}
          className="triage-flag-select"
        />
        <Select
          mode="multiple"
          allowClear
          placeholder="Etiquetas"
          aria-label="Etiquetas a filtrar"
          value={tagFilter}
          onChange={setTagFilter}
          options={tags.map((t) => ({ value: t.id, label: t.name }))}
          optionFilterProp="label"
          maxTagCount="responsive"
          className="triage-tag-select"
        />
      </Space>
      <Table<TriageItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        pagination={false}
        scroll={{ x: 800 }}
        tableLayout="fixed"
        expandable={{ expandedRowRender: (item) => <FlagFigures item={item} />, rowExpandable: (item) => item.flags.length > 0 }}
        onRow={(item) => ({ onClick: () => navigate(flagLink(item, item.flags[0])), className: 'triage-row' })}
        locale={{ emptyText: 'No hay pacientes que cumplan el filtro' }}
      />
      <Pagination
        current={page}
        pageSize={pageSize}
        total={total}
        pageSizeOptions={PAGE_SIZES}
        showSizeChanger
        showTotal={(n) => countOf(n, 'paciente', 'pacientes')}
        locale={{
          items_per_page: '/ página',
          jump_to: 'Ir a',
          page: 'Página',
          prev_page: 'Página anterior',
          next_page: 'Página siguiente',
        }}
        onChange={(p, size) => {
          setPage(size !== pageSize ? 1 : p);
          setPageSize(size);
        }}
        className="triage-pager"
      />
    </PageHeader>
  );
}
