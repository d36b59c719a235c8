import { useMemo, useState } from 'react';
import { Alert as Banner, Button, Empty, Input, Pagination, Spin, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { totalOf } from '../../providers/data';
import { useApiQuery } from '../../providers/calls';
import { AlertCard } from '../../components/alerts/AlertCard';
import { AlertFilters, defaultRange, toParams, type FilterValues } from '../../components/alerts/AlertFilters';
import { ClosedAlertsTable } from '../../components/alerts/ClosedAlertsTable';
import { POLL_MS } from '../../components/alerts.data';
import '../../components/alerts/alerts.css';
import { countOf, isOne } from '@vigia/contract/rules/plural';
import { ReadState, ReadStateView, useReadState } from '../../ui/ReadState';

type Params = Record<string, string | number | number[] | undefined>;
const INITIAL_FILTERS = { active: ['date' as const], values: { date: defaultRange() } as FilterValues };
/** The list's `id` filter takes up to 200 (openapi.yaml, listClientAlerts): a digest's link names at most that many. */
const MAX_LINKED = 200;

/** A notification digest's link, `?id=1&id=2` (issue 41): the positive whole numbers, once each. */
function linkedIds(params: URLSearchParams): number[] {
  const ids = params
    .getAll('id')
    .filter((v) => /^\d{1,10}$/.test(v))
    .map(Number);
  return [...new Set(ids.filter((id) => id > 0 && id <= 2_147_483_647))].slice(0, MAX_LINKED);
}

/**
 * One page of the client's alerts; a failure is said in place (P212, superseding 02 §8's 'only
 * logged'). `arrivals` re-asks when new alerts came in; the previous page stays on screen while the
 * next one loads.
 */
function useClientAlerts(status: 'active' | 'closed', params: Params, page: number, perPage: number, arrivals = 0) {
  const { query, result } = useApiQuery('/reports/client_alerts_list', {
    query: { status, page, per_page: perPage, ...params },
    meta: { arrivals },
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: false,
  });
  return { rows: Array.isArray(result.data) ? result.data : [], total: totalOf(query.data), loading: query.isFetching, query };
}

/**
 * Short polling (P65): every few seconds, the alerts newer than the last one seen. New ones are
 * announced (the hook's success notification) and counted in `arrivals`.
 */
function useAlertArrivals() {
  const [poll, setPoll] = useState<{ since?: number; arrivals: number }>({ arrivals: 0 });
  const { result } = useApiQuery('/alerts/updates', {
    query: { since_id: poll.since },
    queryOptions: { refetchInterval: POLL_MS },
    errorNotification: false,
    successNotification: (answer, values) => {
      const alerts = answer?.data.alerts ?? [];
      const since = (values as { query?: { since_id?: number } } | undefined)?.query?.since_id;
      if (since === undefined || alerts.length === 0) return false;
      return {
        type: 'success',
        message: isOne(alerts.length) ? 'Nueva alerta' : `${alerts.length} alertas nuevas`,
        description: alerts.map((a) => a.patient.full_name).join(', '),
      };
    },
  });
  const updates = result.data as Partial<Schemas['AlertUpdates']>;
  if (updates.last_id !== undefined && updates.last_id !== poll.since) {
    // The answer moves the cursor on (adjusting state while rendering, not in an effect).
    const fresh = poll.since !== undefined && (updates.alerts?.length ?? 0) > 0;
    setPoll({ since: updates.last_id, arrivals: poll.arrivals + (fresh ? 1 : 0) });
  }
  return poll.arrivals;
}

/** 'Gestor de alertas' (02 §2.9): open cards and closed table, search, filters; new alerts arrive by short polling. */
export default function AlertsManagerPage() {
  usePageTitle('Gestor de alertas');
  const [urlParams, setUrlParams] = useSearchParams();
  // A digest's link shows just its alerts, open and closed, whatever their dates (issue 41).
  const digest = useMemo(() => linkedIds(urlParams), [urlParams]);
  const [chosenTab, setTab] = useState<'open' | 'closed'>();
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<Params>(toParams(INITIAL_FILTERS.active, INITIAL_FILTERS.values));
  const [openPage, setOpenPage] = useState(1);
  const [closedPage, setClosedPage] = useState({ page: 1, size: 10 });
  const common = useMemo(() => (digest.length ? { id: digest } : { ...filters, search: search || undefined }), [digest, filters, search]);
  const openParams = useMemo(() => (digest.length ? { id: digest } : { search: search || undefined }), [digest, search]);
  const arrivals = useAlertArrivals();
  const open = useClientAlerts('active', openParams, openPage, 10, arrivals);
  const closed = useClientAlerts('closed', common, closedPage.page, closedPage.size);
  // A digest whose alerts were all closed meanwhile opens on 'Cerradas'.
  const tab = chosenTab ?? (digest.length && !open.loading && open.total === 0 && closed.total > 0 ? 'closed' : 'open');
  const showAll = () => {
    setUrlParams({});
    setTab(undefined);
    setOpenPage(1);
    setClosedPage((p) => ({ ...p, page: 1 }));
  };
  const found = open.total + closed.total;
  const loading = open.loading || closed.loading;
  const openState = useReadState([open.query], open.rows.length === 0, 'las alertas abiertas');
  // A count that could not be read is not shown as 0.
  const counted = (phase: string) => phase === 'ready' || phase === 'empty' || phase === 'stale';
  const closedCounted = counted(useReadState([closed.query], closed.rows.length === 0, 'las alertas cerradas').phase);

  return (
    <PageHeader title="Gestor de alertas">
      {digest.length > 0 && (
        <Banner
          type="info"
          showIcon
          role="status"
          className="alerts-digest-banner"
          style={{ marginBottom: 12 }}
          message={`Mostrando ${isOne(digest.length) ? 'la alerta' : `las ${digest.length} alertas`} del resumen`}
          description={
            loading
              ? 'Cargando las alertas del enlace…'
              : !counted(openState.phase) || !closedCounted
                ? 'No fue posible cargar todas las alertas del enlace.'
                : `${countOf(open.total, 'abierta', 'abiertas')} y ${countOf(closed.total, 'cerrada', 'cerradas')}.` +
                  (found < digest.length
                    ? ` ${countOf(digest.length - found, 'alerta del enlace no existe', 'alertas del enlace no existen')} en su organización.`
                    : '')
          }
          action={
            <Button size="small" onClick={showAll}>
              Ver todas las alertas
            </Button>
          }
        />
      )}
      <Input.Search
        allowClear
        placeholder="Buscar por nombre o documento del paciente"
        aria-label="Buscar paciente"
        onSearch={(v) => {
          setSearch(v.trim());
          setOpenPage(1);
          setClosedPage((p) => ({ ...p, page: 1 }));
        }}
        style={{ maxWidth: 420, marginBottom: 12, display: digest.length ? 'none' : undefined }}
      />
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'open' | 'closed')}
        items={[
          {
            key: 'open',
            label: counted(openState.phase) ? `Abiertas (${open.total})` : 'Abiertas',
            children: (
              <Spin spinning={open.loading}>
                <ReadStateView status={openState} empty={<Empty description="No hay alertas abiertas" />}>
                  <div className="alert-grid">
                    {open.rows.map((a) => (
                      <AlertCard key={a.id} alert={a} showPatient source="management" />
                    ))}
                  </div>
                </ReadStateView>
                <Pagination
                  style={{ marginTop: 16 }}
                  current={openPage}
                  pageSize={10}
                  total={open.total}
                  showSizeChanger={false}
                  showLessItems={false}
                  // 7 visible page links (02 §2.9).
                  itemRender={(_page, _type, element) => element}
                  onChange={setOpenPage}
                />
              </Spin>
            ),
          },
          {
            key: 'closed',
            label: digest.length && closedCounted ? `Cerradas (${closed.total})` : 'Cerradas',
            children: (
              <>
                {digest.length === 0 && (
                  <AlertFilters
                    keys={['date', 'alert_type', 'clinical_element', 'priority']}
                    initial={INITIAL_FILTERS}
                    applyLabel="Aplicar Filtros"
                    onApply={(p) => {
                      setFilters(p);
                      setClosedPage((s) => ({ ...s, page: 1 }));
                    }}
                  />
                )}
                <ReadState reads={[closed.query]} what="las alertas cerradas" isEmpty={closed.rows.length === 0}>
                  <ClosedAlertsTable
                    manager
                    rows={closed.rows}
                    total={closed.total}
                    loading={closed.loading}
                    page={closedPage.page}
                    pageSize={closedPage.size}
                    onPage={(page, size) => setClosedPage({ page, size })}
                  />
                </ReadState>
              </>
            ),
          },
        ]}
      />
    </PageHeader>
  );
}
