import { useEffect, useState } from 'react';
import { useList } from '@refinedev/core';
import { ReadState } from '../../ui/ReadState';
import { Link, useNavigate } from 'react-router';
import { Descriptions, Empty, Grid, Input, Pagination, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PageHeader } from '../../crud/PageHeader';
import { ColorChip } from '../../crud/ColorChip';
import { usePageTitle } from '../../layout/usePageTitle';
import type { Schemas } from '../../contract';
import { asFilters } from '../../providers/data';
import { serverError } from '../../providers/notices';
import { useClientTags } from '../../hooks/useClientTags';
import { useUrlParams } from '../../hooks/useUrlParams';
import { staffTimeZone } from '../../session';
import { countOf } from '@vigia/contract/rules/plural';
import { formatWhen } from '@vigia/contract/rules/dates';
import { TRIAGE_FLAG_NAMES, TRIAGE_FLAGS, type TriageFlagCode } from '@vigia/contract/rules/triage';
import { figureName, formatFigure } from './triage.data';
import { chipsShown, flagChips, flagLink as linkOf, flagTitle, readingAge, readingItems } from './triage-card';
import { TriageSettingsDrawer } from './TriageSettingsDrawer';
import './triage.css';

type TriageItem = Schemas['TriageItem'];
type TriageFlag = Schemas['TriageFlag'];

const PAGE_SIZES = [20, 50, 100];

/** The patient page on the tab that explains the flag (and on its chart, for a Signos flag). */
const flagLink = (item: TriageItem, flag: TriageFlag | undefined) => linkOf(item.id, flag);

/** The page's clock, read again each minute, for 'hace 3 horas' (a test fixes it with the browser's clock). */
function useNow(ms = 60_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

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

/**
 * A phone's flags: one short chip per flag (issue 50), its signs inside it, each leading to its own
 * chart; the explanations are the chip's title and sit in full behind 'Ver cifras'.
 */
/** The card's 'Ver cifras', which also counts the flags its chips leave out. */
const figuresSummary = (more: number) => (more === 0 ? 'Ver cifras' : `Ver cifras y ${more} ${more === 1 ? 'señal más' : 'señales más'}`);

function FlagChips({ item }: { item: TriageItem }) {
  if (!item.flags.length) return <Typography.Text type="secondary">Sin señales en los últimos 14 días</Typography.Text>;
  return (
    <ul className="triage-flags triage-chips">
      {chipsShown(flagChips(item.flags)).shown.map((c) =>
        c.signs.length ? (
          <li key={c.code} className="triage-chip" title={c.title}>
            {c.name}:{' '}
            {c.signs.map((x, i) => (
              <span key={x.short}>
                {i > 0 && ', '}
                <Link to={flagLink(item, x.flag)}>{x.short}</Link>
              </span>
            ))}{' '}
            <span className="triage-chip-points">+{c.points}</span>
          </li>
        ) : (
          <li key={c.code} className="triage-chip" title={c.title}>
            <Link to={flagLink(item, c.flag)}>{c.name}</Link> <span className="triage-chip-points">+{c.points}</span>
          </li>
        ),
      )}
    </ul>
  );
}

/** The figures behind each flag, shown when the row is expanded. */
function FlagFigures({ item }: { item: TriageItem }) {
  const zone = staffTimeZone();
  return (
    <div className="triage-figures">
      {item.flags.map((f, i) => (
        <Descriptions
          key={`${f.code}-${i}`}
          size="small"
          column={{ xs: 1, sm: 2, md: 4 }}
          title={flagTitle(f)}
          items={Object.entries(f.figures).map(([key, value]) => ({
            key,
            label: figureName(key),
            children: formatFigure(key, value, zone),
          }))}
        />
      ))}
    </div>
  );
}

const Score = ({ score }: { score: number }) => (
  <Tag className={score > 0 ? 'triage-score triage-score-on' : 'triage-score'} aria-label={`Puntaje ${score}`}>
    {score}
  </Tag>
);

function PatientCell({ item }: { item: TriageItem }) {
  return (
    <div>
      <Link to={flagLink(item, item.flags[0])} onClick={(e) => e.stopPropagation()} className="triage-name">
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
  );
}

/** 'PA 150/85 mmHg · hace 3 horas', or 'Sin lecturas'. */
function LastReading({ item, now }: { item: TriageItem; now: number }) {
  const last = item.last_reading;
  if (!last) return <>Sin lecturas</>;
  return (
    <>
      {readingItems(last).map((r, i) => (
        <span key={r.short}>
          {i > 0 && ', '}
          <abbr title={r.name}>{r.short}</abbr> <strong className="triage-last-value">{r.text}</strong>
        </span>
      ))}{' '}
      ·{' '}
      <time dateTime={last.when} title={formatWhen(last.when, staffTimeZone())}>
        {readingAge(last.when, now)}
      </time>
    </>
  );
}

const columnsAt = (now: number): ColumnsType<TriageItem> => [
  { title: 'Puntaje', dataIndex: 'score', width: 96, render: (score: number) => <Score score={score} /> },
  { title: 'Paciente', key: 'patient', width: 260, render: (_, item) => <PatientCell item={item} /> },
  { title: 'Señales de los últimos 14 días', key: 'flags', render: (_, item) => <FlagList item={item} /> },
  { title: 'Última lectura', key: 'last', width: 200, render: (_, item) => <LastReading item={item} now={now} /> },
];

/**
 * A phone's list (issue 50): one compact card per patient, about a third of the old one: score and
 * name on one line, the flags as short chips, the last reading with its value, unit and age; the
 * explanation and the figures behind 'Ver cifras'.
 */
function TriageCards({ rows, loading, now }: { rows: TriageItem[]; loading: boolean; now: number }) {
  if (!rows.length)
    return loading ? <Spin className="triage-cards-loading" /> : <Empty description="No hay pacientes que cumplan el filtro" />;
  return (
    <ol className="triage-cards" aria-label="Pacientes priorizados">
      {rows.map((item) => (
        <li key={item.id} className="triage-card">
          <div className="triage-card-head">
            <Score score={item.score} />
            <Link to={flagLink(item, item.flags[0])} className="triage-name">
              {item.patient.full_name}
            </Link>
            <span className="triage-nid">{item.patient.nid}</span>
            {item.patient.tags.map((t) => (
              <ColorChip key={t.id} color={t.color}>
                {t.name}
              </ColorChip>
            ))}
          </div>
          <FlagChips item={item} />
          <div className="triage-card-last">
            Última lectura: <LastReading item={item} now={now} />
          </div>
          {item.flags.length > 0 && (
            <details className="triage-card-figures">
              <summary>{figuresSummary(chipsShown(flagChips(item.flags)).more)}</summary>
              <FlagList item={item} />
              <FlagFigures item={item} />
            </details>
          )}
        </li>
      ))}
    </ol>
  );
}

const isFlag = (v: string | null): v is TriageFlagCode => v != null && (TRIAGE_FLAGS as readonly string[]).includes(v);
const positive = (v: string | null) => (v && /^[1-9][0-9]{0,8}$/.test(v) ? Number(v) : null);

/** The filters, the page and its size, read from the URL (a reload or a shared link keeps them). */
function readFilters(params: URLSearchParams) {
  const flag = params.get('flag');
  const size = positive(params.get('size'));
  return {
    q: params.get('q')?.trim() ?? '',
    flag: isFlag(flag) ? flag : undefined,
    tags: (params.get('tags') ?? '')
      .split(',')
      .map(positive)
      .filter((id): id is number => id != null),
    page: positive(params.get('page')) ?? 1,
    pageSize: size != null && PAGE_SIZES.includes(size) ? size : PAGE_SIZES[0],
  };
}

/**
 * 'Priorización' (issue 21): every active patient ranked by the flags of the last 14 days; a row
 * opens the patient page on the tab of its first flag, each flag links to its own tab, and
 * expanding a row shows the figures behind each flag. Filters, page and size live in the URL.
 */
export default function TriagePage() {
  usePageTitle('Priorización');
  const navigate = useNavigate();
  const tags = useClientTags();
  const [params, changeParams] = useUrlParams();
  const { q, flag, tags: tagFilter, page, pageSize } = readFilters(params);
  // Below md (768 px) the table's columns do not fit: stacked cards instead.
  const phone = Grid.useBreakpoint().md === false;
  const now = useNow();

  /** Sets URL parameters (undefined removes one); a filter change goes back to the first page. */
  const update = (changes: Record<string, string | undefined>, keepPage = false) =>
    changeParams(changes, (next) => {
      if (!keepPage) next.delete('page');
    });

  const { query, result } = useList<TriageItem>({
    resource: 'triage',
    pagination: { currentPage: page, pageSize },
    filters: asFilters({ q: q || undefined, flag, tags: tagFilter.length ? tagFilter.join(',') : undefined }),
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar la priorización'),
  });
  // A failed read keeps the rows it had, marked as such (P212), never 'no hay pacientes'.
  const rows = result.data;
  const total = result.total ?? 0;

  return (
    <PageHeader title="Priorización" extra={<TriageSettingsDrawer />}>
      <Typography.Paragraph type="secondary" className="triage-intro">
        Pacientes activos ordenados por las señales de sus lecturas, alertas, órdenes y actividades de los últimos 14 días.{' '}
        {phone
          ? "Toque una señal para abrir la ficha en la pestaña que la explica; 'Ver cifras' muestra las cifras detrás de cada señal."
          : 'Haga clic en una fila para abrir la ficha en la pestaña de su primera señal, o en una señal para abrir la suya; expanda la fila para ver las cifras.'}
      </Typography.Paragraph>
      <Space wrap className="triage-filters">
        <Input.Search
          key={q}
          defaultValue={q}
          placeholder="Buscar por nombre o número de documento"
          aria-label="Buscar paciente por nombre o documento"
          allowClear
          enterButton="Buscar"
          onSearch={(text) => update({ q: text.trim() })}
          className="triage-search"
        />
        <Select
          allowClear
          placeholder="Señal"
          aria-label="Señal a filtrar"
          value={flag}
          onChange={(code?: TriageFlagCode) => update({ flag: code })}
          options={TRIAGE_FLAGS.map((code) => ({ value: code, label: TRIAGE_FLAG_NAMES[code] }))}
          className="triage-flag-select"
        />
        <Select
          mode="multiple"
          allowClear
          placeholder="Etiquetas"
          aria-label="Etiquetas a filtrar"
          value={tagFilter}
          onChange={(ids: number[]) => update({ tags: ids.join(',') })}
          options={tags.map((t) => ({ value: t.id, label: t.name }))}
          optionFilterProp="label"
          maxTagCount="responsive"
          className="triage-tag-select"
        />
      </Space>
      <ReadState reads={[query]} what="la priorización" isEmpty={rows.length === 0}>
        {phone ? (
          <TriageCards rows={rows} loading={query.isFetching} now={now} />
        ) : (
          <Table<TriageItem>
            rowKey="id"
            size="middle"
            columns={columnsAt(now)}
            dataSource={rows}
            loading={query.isFetching}
            pagination={false}
            tableLayout="fixed"
            expandable={{
              columnTitle: <span className="vigia-sr-only">Cifras</span>,
              expandedRowRender: (item) => <FlagFigures item={item} />,
              rowExpandable: (item) => item.flags.length > 0,
            }}
            onRow={(item) => ({ onClick: () => navigate(flagLink(item, item.flags[0])), className: 'triage-row' })}
            locale={{ emptyText: 'No hay pacientes que cumplan el filtro' }}
          />
        )}
        <Pagination
          current={page}
          pageSize={pageSize}
          total={total}
          pageSizeOptions={PAGE_SIZES}
          showSizeChanger
          simple={phone}
          showTotal={(n) => countOf(n, 'paciente', 'pacientes')}
          locale={{
            items_per_page: '/ página',
            jump_to: 'Ir a',
            page: 'Página',
            prev_page: 'Página anterior',
            next_page: 'Página siguiente',
          }}
          onChange={(p, size) =>
            update(
              { page: size !== pageSize || p === 1 ? undefined : String(p), size: size === PAGE_SIZES[0] ? undefined : String(size) },
              true,
            )
          }
          className="triage-pager"
        />
      </ReadState>
    </PageHeader>
  );
}
