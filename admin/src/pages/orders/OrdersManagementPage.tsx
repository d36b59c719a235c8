import { useCallback, useEffect, useState } from 'react';
import { Radio, Tabs } from 'antd';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { OrdersTable } from './OrdersTable';
import { ordersApi, type Order } from './orders.api';
import './orders.css';

type TabKey = '0' | '1' | '2';
const TABS: Array<{ key: TabKey; label: string }> = [
  { key: '0', label: 'No Gestionadas' },
  { key: '1', label: 'Programadas' },
  { key: '2', label: 'Cerradas' },
];

/** 'Gestión de órdenes', /orders (02 §2.6, D7): three tabs, a type filter in Programadas and Cerradas. */
export default function OrdersManagementPage() {
  usePageTitle('Gestión de órdenes');
  const [tab, setTab] = useState<TabKey>('0');
  const [type, setType] = useState<number | undefined>(undefined);
  const [paging, setPaging] = useState({ page: 1, size: 10 });
  const [state, setState] = useState<{ rows: Order[]; total: number; loading: boolean }>({ rows: [], total: 0, loading: true });
  const load = useCallback(async () => {
    setState((s) => ({ ...s, loading: true }));
    try {
      const { rows, total } = await ordersApi.clientOrders({
        filter: tab, type: tab === '0' ? undefined : type, _start: (paging.page - 1) * paging.size, _end: paging.page * paging.size, _sort: 'id', _order: 'desc',
      });
      setState({ rows, total, loading: false });
    } catch (e) {
      console.error(e); // 02 §8: failed list loads are only logged.
      setState((s) => ({ ...s, loading: false }));
    }
  }, [tab, type, paging]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <PageHeader title="Gestión de órdenes">
      <Tabs
        activeKey={tab}
        onChange={(k) => { setTab(k as TabKey); setPaging((p) => ({ ...p, page: 1 })); }}
        items={TABS.map((t) => ({ key: t.key, label: t.label }))}
        tabBarExtraContent={tab !== '0' && (
          <Radio.Group value={type ?? 'all'} onChange={(e) => { setType(e.target.value === 'all' ? undefined : Number(e.target.value)); setPaging((p) => ({ ...p, page: 1 })); }} optionType="button" size="small"
            options={[{ value: 'all', label: 'Todas' }, { value: 0, label: 'Signos Vitales' }, { value: 1, label: 'Medicamentos' }]} />
        )}
      />
      <OrdersTable rows={state.rows} total={state.total} loading={state.loading} page={paging.page} size={paging.size} pageLabel="Órdenes por página"
        onPage={(page, size) => setPaging({ page, size })} />
    </PageHeader>
  );
}
