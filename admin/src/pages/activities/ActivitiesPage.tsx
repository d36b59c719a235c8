import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button, DatePicker, Input, Pagination, Radio, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { CheckOutlined, LeftOutlined, ReloadOutlined, RightOutlined } from '@ant-design/icons';
import { useInvalidate, useList, useOne, type CrudFilter } from '@refinedev/core';
import { ReadState } from '../../ui/ReadState';
import dayjs, { type Dayjs } from 'dayjs';
import type { Schemas } from '../../contract';
import { addDays, localParts } from '@vigia/contract/rules/dates';
import { formatWhen } from '@vigia/contract/rules/dates';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useStaffIdentity } from '../../providers/identity';
import { useUrlParams } from '../../hooks/useUrlParams';
import { ACTIVITY_STATUS_COLORS } from '../../components/order-ui';
import { ACTIVITY_STATUS_OPTIONS, activitySubject, dayTitle } from './activities-day';
import { useApiMutation } from '../../providers/calls';
import { serverError } from '../../providers/notices';
import '../../crud/crud.css';
import './activities.css';
import { SectionTitle } from '../../components/SectionTitle';

type ClientActivity = Schemas['ClientActivity'];

const PAGE_SIZES = [10, 20, 50];
const SEARCH_DELAY_MS = 350;
/** Statuses move with the clock (En proceso, No reportada): today's list refreshes itself. */
const REFRESH_MS = 60_000;
const TYPE_OPTIONS = [
  { value: 'all', label: 'Todas' },
  { value: '1', label: 'Medicamentos' },
  { value: '0', label: 'Signos Vitales' },
];

const numberParam = (value: string | null) => (value == null || value === '' || Number.isNaN(Number(value)) ? undefined : Number(value));
const isDay = (value: string | null): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs(value).isValid();

/**
 * 'Actividades' (/activities, P69): the client's worklist for one day in the client's time zone
 * (default today), with previous/next day, status, type and patient filters, and 'Confirmar' for a
 * medication during its hour. Day and filters live in the URL.
 */
export default function ActivitiesPage() {
  usePageTitle('Actividades');
  const user = useStaffIdentity();
  const [params, changeParams] = useUrlParams();
  const [paging, setPaging] = useState({ page: 1, size: 20 });
  const [confirming, setConfirming] = useState<number | null>(null);
  const [search, setSearch] = useState(params.get('q') ?? '');

  // The client's zone decides what "today" is and how hours read (D5).
  const { query: clientQuery } = useOne<Schemas['Client']>({
    resource: 'clients',
    id: user?.client_id ?? '',
    queryOptions: { enabled: !!user?.client_id },
    errorNotification: false,
  });
  const zone = clientQuery.isSuccess ? clientQuery.data.data.time_zone : clientQuery.isError ? user?.time_zone || 'UTC' : null;

  const today = zone ? localParts(new Date(), zone).date : null;
  const date = isDay(params.get('date')) ? params.get('date')! : today;
  const status = numberParam(params.get('status'));
  const type = numberParam(params.get('type'));
  const q = params.get('q') ?? '';

  /** Changes the URL's day or filters and goes back to the first page. */
  const setParam = useCallback(
    (name: string, value: string | undefined) => {
      changeParams({ [name]: value });
      setPaging((p) => ({ ...p, page: 1 }));
    },
    [changeParams],
  );

  useEffect(() => {
    if (search.trim() === q) return;
    const timer = setTimeout(() => setParam('q', search.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, q, setParam]);

  const filters: CrudFilter[] = [
    { field: 'date', operator: 'eq', value: date },
    { field: 'status', operator: 'eq', value: status },
    { field: 'type', operator: 'eq', value: type },
    { field: 'q', operator: 'eq', value: q || undefined },
  ];
  const { query, result } = useList<ClientActivity>({
    resource: 'activities',
    pagination: { currentPage: paging.page, pageSize: paging.size, mode: 'server' },
    filters: filters.filter((f) => f.value !== undefined),
    queryOptions: {
      enabled: !!date,
      placeholderData: (previous) => previous,
      // Today's statuses move with the clock: the list refreshes itself, quietly.
      refetchInterval: date && date === today ? REFRESH_MS : false,
    },
    // Said in place, with 'Reintentar' (P212).
    errorNotification: false,
  });
  const state = { rows: result.data, total: result.total ?? 0, loading: !!date && (query.isLoading || query.isPlaceholderData) };
  const invalidate = useInvalidate();
  const reload = () => invalidate({ resource: 'activities', invalidates: ['list'] });
  const { mutate } = useApiMutation();

  const confirm = (a: ClientActivity) => {
    setConfirming(a.id);
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/activities/{activityId}/confirm',
        params: { id: a.patient.id, activityId: a.id },
        successNotification: () => ({
          type: 'success',
          message: `Toma confirmada: ${activitySubject(a) ?? 'medicamento'} de ${a.patient.full_name}`,
        }),
        errorNotification: serverError('No fue posible confirmar la toma'),
      },
      {
        onSettled: () => {
          setConfirming(null);
          void reload();
        },
      },
    );
  };

  const columns: TableColumnsType<ClientActivity> = [
    {
      title: 'Hora',
      key: 'hour',
      width: 80,
      render: (_, a) => <Typography.Text strong>{zone ? formatWhen(a.programmed_at, zone).slice(-5) : ''}</Typography.Text>,
    },
    {
      title: 'Paciente',
      key: 'patient',
      render: (_, a) => <Link to={`/patients/${a.patient.id}`}>{a.patient.full_name}</Link>,
    },
    {
      title: 'Orden',
      key: 'order',
      render: (_, a) => (
        <div className="activities-order">
          <Space size={6}>
            <Tag color={a.order_type === 1 ? 'geekblue' : 'cyan'}>{a.order_type === 1 ? 'Medicamento' : 'Signo vital'}</Tag>
            <span>{activitySubject(a) ?? <Tag color="red">Dato Incompleto</Tag>}</span>
          </Space>
          {a.order_description && (
            <Typography.Text type="secondary" className="activities-description" ellipsis={{ tooltip: a.order_description }}>
              {a.order_description}
            </Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: 'Estado',
      key: 'status',
      render: (_, a) => <Tag color={ACTIVITY_STATUS_COLORS[a.status]}>{a.status_name}</Tag>,
    },
    {
      title: 'Acciones',
      key: 'actions',
      align: 'right',
      fixed: 'right',
      render: (_, a) =>
        a.can_confirm ? (
          <Button size="small" type="primary" icon={<CheckOutlined />} loading={confirming === a.id} onClick={() => confirm(a)}>
            Confirmar
          </Button>
        ) : null,
    },
  ];

  const filtered = status !== undefined || type !== undefined || q !== '';
  const from = state.total === 0 ? 0 : (paging.page - 1) * paging.size + 1;
  const to = Math.min(paging.page * paging.size, state.total);

  return (
    <PageHeader
      title="Actividades"
      extra={
        <Tooltip title="Actualizar la lista">
          <Button icon={<ReloadOutlined />} onClick={() => void reload()} aria-label="Actualizar">
            Actualizar
          </Button>
        </Tooltip>
      }
    >
      <div className="activities-day">
        <Space.Compact>
          <Tooltip title="Día anterior">
            <Button
              icon={<LeftOutlined />}
              aria-label="Día anterior"
              disabled={!date}
              onClick={() => date && setParam('date', addDays(date, -1))}
            />
          </Tooltip>
          <DatePicker
            aria-label="Día"
            allowClear={false}
            format="DD/MM/YYYY"
            value={date ? dayjs(date) : null}
            onChange={(value: Dayjs | null) => value && setParam('date', value.format('YYYY-MM-DD'))}
          />
          <Tooltip title="Día siguiente">
            <Button
              icon={<RightOutlined />}
              aria-label="Día siguiente"
              disabled={!date}
              onClick={() => date && setParam('date', addDays(date, 1))}
            />
          </Tooltip>
        </Space.Compact>
        <Button disabled={!today || date === today} onClick={() => setParam('date', undefined)}>
          Hoy
        </Button>
        {date && today && <SectionTitle className="activities-day-title">{dayTitle(date, today)}</SectionTitle>}
      </div>

      <div className="vigia-filters">
        <div role="radiogroup" aria-label="Tipo de actividad">
          <Radio.Group
            optionType="button"
            value={type === undefined ? 'all' : String(type)}
            options={TYPE_OPTIONS}
            onChange={(e) => setParam('type', e.target.value === 'all' ? undefined : e.target.value)}
          />
        </div>
        <Select
          allowClear
          aria-label="Estado"
          placeholder="Todos los estados"
          className="vigia-filter-select"
          popupMatchSelectWidth={false}
          value={status}
          options={ACTIVITY_STATUS_OPTIONS}
          onChange={(value?: number) => setParam('status', value === undefined ? undefined : String(value))}
        />
        <Input.Search
          allowClear
          aria-label="Buscar paciente"
          placeholder="Paciente: nombre o documento"
          className="vigia-filter-search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onSearch={(value) => setParam('q', value.trim() || undefined)}
        />
      </div>

      <ReadState reads={[query]} what="las actividades" isEmpty={state.rows.length === 0}>
        <Table<ClientActivity>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={state.rows}
          loading={state.loading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: filtered ? 'No hay actividades que coincidan con los filtros.' : 'No hay actividades programadas para este día.',
          }}
        />

        <div className="vigia-table-footer">
          <Space size={8}>
            <Typography.Text type="secondary">Actividades por página</Typography.Text>
            <Select
              size="small"
              value={paging.size}
              aria-label="Actividades por página"
              options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))}
              onChange={(size) => setPaging({ page: 1, size })}
            />
          </Space>
          <Typography.Text type="secondary">{state.total === 0 ? 'Sin resultados' : `${from}–${to} de ${state.total}`}</Typography.Text>
          <Pagination
            size="small"
            current={paging.page}
            pageSize={paging.size}
            total={state.total}
            showSizeChanger={false}
            onChange={(page) => setPaging((p) => ({ ...p, page }))}
          />
        </div>
      </ReadState>
    </PageHeader>
  );
}
