import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Empty, Input, Pagination, Spin, Tabs } from 'antd';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { AlertCard } from './AlertCard';
import { AlertFilters, defaultRange, toParams, type FilterValues } from './AlertFilters';
import { ClosedAlertsTable } from './ClosedAlertsTable';
import { alertsApi, type Alert, type Params } from './alerts.api';
import { POLL_MS } from './alerts.data';
import { useNotify } from './notify';
import './alerts.css';

type ListState = { rows: Alert[]; total: number; loading: boolean };
const EMPTY: ListState = { rows: [], total: 0, loading: true };
const INITIAL_FILTERS = { active: ['date' as const], values: { date: defaultRange() } as FilterValues };

/** Loads one page of the client's alerts; failures are only logged (02 §8). */
function useClientAlerts(status: 'active' | 'closed', params: Params, page: number, perPage: number) {
  const [state, setState] = useState<ListState>(EMPTY);
  const load = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const { rows, total } = await alertsApi.clientAlerts({ status, page, per_page: perPage, ...params });
      setState({ rows, total, loading: false });
    } catch (error) {
      console.error(error);
      setState((s) => ({ ...s, loading: false }));
    }
  }, [status, page, perPage, params]);
  useEffect(() => {
    void load();
  }, [load]);
  return { ...state, reload: load };
}

/** 'Gestor de alertas' (02 §2.9): open cards and closed table, search, filters; new alerts arrive by short polling. */
export default function AlertsManagerPage() {
  usePageTitle('Gestor de alertas');
  const notify = useNotify();
  const [tab, setTab] = useState<'open' | 'closed'>('open');
  const [search, setSearch] = useState('');
  const [filters, setFilters] = useState<Params>(toParams(INITIAL_FILTERS.active, INITIAL_FILTERS.values));
  const [openPage, setOpenPage] = useState(1);
  const [closedPage, setClosedPage] = useState({ page: 1, size: 10 });
  const common = useMemo(() => ({ ...filters, search: search || undefined }), [filters, search]);
  const openParams = useMemo(() => ({ search: search || undefined }), [search]);
  const open = useClientAlerts('active', openParams, openPage, 10);
  const closed = useClientAlerts('closed', common, closedPage.page, closedPage.size);

  // Short polling (P6x): ask every few seconds for alerts newer than the last one seen.
  const lastId = useRef<number | undefined>(undefined);
  const reloadOpen = open.reload;
  useEffect(() => {
    let alive = true;
    const tick = async () => {
      try {
        const u = await alertsApi.updates(lastId.current);
        if (!alive) return;
        if (lastId.current !== undefined && u.alerts.length) {
          notify.success(
            u.alerts.length === 1 ? 'Nueva alerta' : `${u.alerts.length} alertas nuevas`,
            u.alerts.map((a) => a.patient.full_name).join(', '),
          );
          void reloadOpen();
        }
        lastId.current = u.last_id;
      } catch (error) {
        console.error(error);
      }
    };
    void tick();
    const timer = window.setInterval(tick, POLL_MS);
    return () => {
      alive = false;
      window.clearInterval(timer);
    };
  }, [reloadOpen, notify]);

  return (
    <PageHeader title="Gestor de alertas">
      <Input.Search
        allowClear
        placeholder="Buscar por nombre o documento del paciente"
        aria-label="Buscar paciente"
        onSearch={(v) => {
          setSearch(v.trim());
          setOpenPage(1);
          setClosedPage((p) => ({ ...p, page: 1 }));
        }}
        style={{ maxWidth: 420, marginBottom: 12 }}
      />
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'open' | 'closed')}
        items={[
          {
            key: 'open',
            label: `Abiertas (${open.total})`,
            children: (
              <Spin spinning={open.loading}>
                {open.rows.length === 0 && !open.loading ? (
                  <Empty description="No hay alertas abiertas" />
                ) : (
                  <div className="alert-grid">
                    {open.rows.map((a) => (
                      <AlertCard key={a.id} alert={a} showPatient source="management" />
                    ))}
                  </div>
                )}
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
            label: 'Cerradas',
            children: (
              <>
                <AlertFilters
                  keys={['date', 'alert_type', 'clinical_element', 'priority']}
                  initial={INITIAL_FILTERS}
                  applyLabel="Aplicar Filtros"
                  onApply={(p) => {
                    setFilters(p);
                    setClosedPage((s) => ({ ...s, page: 1 }));
                  }}
                />
                <ClosedAlertsTable
                  manager
                  rows={closed.rows}
                  total={closed.total}
                  loading={closed.loading}
                  page={closedPage.page}
                  pageSize={closedPage.size}
                  onPage={(page, size) => setClosedPage({ page, size })}
                />
              </>
            ),
          },
        ]}
      />
    </PageHeader>
  );
}
