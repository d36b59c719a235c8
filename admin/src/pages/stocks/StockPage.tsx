import { useState } from 'react';
import { useInvalidate, useList, useOne } from '@refinedev/core';
import { Link, Navigate, useParams } from 'react-router';
import { Button, Card, DatePicker, Descriptions, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import type { Schemas } from '../../contract';
import { CrudEditDialog } from '../../crud/CrudDialogs';
import { PageHeader } from '../../crud/PageHeader';
import { StatusChip } from '../../crud/renderers';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession, staffTimeZone } from '../../session';
import { formatWhen } from '@vigia/contract/rules/dates';
import { loadFailedUnlessMissing } from '../../providers/notices';
import { can, isRole } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON } from '../../providers/access';
import type { AnyResource } from '../../crud/types';
import { stockStatus } from './stock-status';
import '../../crud/crud.css';

type Stock = Schemas['Stock'];
type Application = Schemas['StockApplication'];

const INCOMPLETE = <Tag color="orange">Dato Incompleto</Tag>;
const orIncomplete = (v: unknown) => (v === null || v === undefined || v === '' ? INCOMPLETE : String(v));
/** 'Ver Lote', /stocks/:id (03 §2): the batch, its edit dialog and the applications made with it. */
export default function StockPage({ resource: stocks }: { resource: AnyResource }) {
  usePageTitle('Ver Lote');
  const { id } = useParams();
  const [editing, setEditing] = useState(false);
  const [range, setRange] = useState<[string | undefined, string | undefined]>([undefined, undefined]);
  const [page, setPage] = useState(1);
  const stock = useOne<Stock>({
    resource: 'stocks',
    id,
    errorNotification: loadFailedUnlessMissing,
  });
  const apps = useList<Application>({
    resource: `stocks/${id}/applications`,
    filters: [
      { field: 'date1', operator: 'eq', value: range[0] },
      { field: 'date2', operator: 'eq', value: range[1] },
    ],
    pagination: { currentPage: page, pageSize: 10, mode: 'server' },
    queryOptions: { placeholderData: (previous) => previous },
    errorNotification: loadFailedUnlessMissing,
  });
  const invalidate = useInvalidate();
  const role = readSession()?.role_name;
  const timeZone = staffTimeZone();
  const mayEdit = isRole(role) && can(role, stocks.writes);

  if (stock.query.error?.statusCode === 404) return <Navigate to="/404notfound" replace />;
  const s = stock.result;
  return (
    <PageHeader
      title="Ver Lote"
      extra={
        <Space>
          <Link to="/inventory">
            <Button icon={<ArrowLeftOutlined />}>Inventario</Button>
          </Link>
          <Tooltip title={mayEdit ? undefined : FORBIDDEN_REASON}>
            <Button type="primary" icon={<EditOutlined />} disabled={!mayEdit || !s} onClick={() => setEditing(true)}>
              Editar
            </Button>
          </Tooltip>
        </Space>
      }
    >
      <Card loading={stock.query.isFetching && !s} style={{ marginBottom: 16 }}>
        {s && (
          <Descriptions column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 3 }} bordered size="small">
            <Descriptions.Item label="Tipo">{s.type_name}</Descriptions.Item>
            <Descriptions.Item label="Nombre">{orIncomplete(s.medical_supply_name)}</Descriptions.Item>
            <Descriptions.Item label={s.batch ? 'Serial de lote' : 'Referencia'}>{s.serial}</Descriptions.Item>
            <Descriptions.Item label="Tipo de Biológico">
              {s.type === 'biologico' ? orIncomplete(s.generic_name) : 'No aplica'}
            </Descriptions.Item>
            <Descriptions.Item label="Fecha de vencimiento">
              {s.formated_expiration_date} {s.expired && <Tag color="red">Vencido</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="Cantidad (unidades)">
              <Typography.Text strong>{s.cuantity}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="Estado">
              <StatusChip value={stockStatus(s)} />
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>

      <Card
        title="Aplicaciones"
        extra={
          <DatePicker.RangePicker
            format="DD/MM/YYYY"
            aria-label="Filtrar por fecha"
            placeholder={['Desde', 'Hasta']}
            onChange={(v: [Dayjs | null, Dayjs | null] | null) => {
              setPage(1);
              setRange([v?.[0]?.format('YYYY-MM-DD'), v?.[1]?.format('YYYY-MM-DD')]);
            }}
          />
        }
      >
        <Table<Application>
          rowKey="encounter_id"
          loading={apps.query.isFetching}
          dataSource={apps.result.data}
          locale={{ emptyText: 'Este lote aún no tiene aplicaciones en el rango elegido.' }}
          pagination={{ current: page, pageSize: 10, total: apps.result.total ?? 0, onChange: setPage, showSizeChanger: false }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: 'Fecha', dataIndex: 'checkout', render: (v: string) => formatWhen(v, timeZone) },
            { title: 'Paciente', dataIndex: 'patient_name', render: (v: string, r) => <Link to={`/patients/${r.patient_id}`}>{v}</Link> },
            { title: 'Documento', dataIndex: 'nid' },
            { title: 'Dosis', dataIndex: 'dose', render: (v: string | null) => v ?? '—' },
            { title: 'Responsable', dataIndex: 'responsible_name', render: (v: string | null) => v ?? '—' },
            { title: 'Atención', dataIndex: 'encounter_id', render: (v: number) => <Link to={`/encounters/${v}`}>Ver atención</Link> },
          ]}
        />
      </Card>

      {editing && id && (
        <CrudEditDialog
          resource={stocks}
          id={id}
          onClosed={() => {
            setEditing(false);
            void invalidate({ resource: 'stocks', id, invalidates: ['detail'] });
          }}
        />
      )}
    </PageHeader>
  );
}
