import { useOnline } from '../../ui/ReadState';
import { useState } from 'react';
import { useDelete, useList } from '@refinedev/core';
import { Button, Card, Grid, Space, Table, Tag, Typography } from 'antd';
import { CloudDownloadOutlined, DeleteOutlined, FolderOpenOutlined, StopOutlined } from '@ant-design/icons';
import { AdminOnlyListPage, emptyTextOf, type AdminOnlyList } from '../../crud/AdminOnlyList';
import { StatusChip } from '../../crud/renderers';
import { usePageTitle } from '../../layout/usePageTitle';
import { roleAccess } from '../../providers/access';
import { loadFailed, serverError, success } from '../../providers/notices';
import { staffTimeZone } from '../../session';
import { formatWhen } from '@vigia/contract/rules/dates';
import { ConfirmButton } from '../../crud/ConfirmButton';
import { PhoneCards, usePhoneLayout } from '../../ui/PhoneCards';
import { ExportFiles } from './ExportFiles';
import { NewExportDialog } from './NewExportDialog';
import {
  EXPORT_TYPES,
  hasFiles,
  isActive,
  pollInterval,
  scopeText,
  sinceText,
  statusChip,
  typeName,
  type FhirExport,
} from './fhir-exports';
import '../../crud/crud.css';
import './fhir-exports.css';

const TITLE = 'Exportaciones FHIR';
const RESOURCE = 'fhir_exports';
const PAGE_SIZES = [10, 20, 50];
const count = new Intl.NumberFormat('es-CO');

/** What stopping an export means, by what it is doing: a running one stops, a finished one loses its files. */
const STOPS = {
  cancel: {
    label: 'Cancelar',
    icon: <StopOutlined />,
    title: '¿Cancelar la exportación?',
    content: 'La exportación se detiene y los archivos que ya escribió se borran. Puede iniciar otra cuando quiera.',
    okText: 'Cancelar exportación',
    done: 'Exportación cancelada',
  },
  delete: {
    label: 'Borrar archivos',
    icon: <DeleteOutlined />,
    title: '¿Borrar los archivos?',
    content: 'Los archivos de esta exportación se borran ahora, antes de que caduquen, y ya no se podrán descargar.',
    okText: 'Borrar archivos',
    done: 'Archivos borrados',
  },
} as const;

/** 'Cancelar' (queued, running) or 'Borrar archivos' (completed), after a confirmation; DELETE either way. */
function StopButton({ record, kind }: { record: FhirExport; kind: keyof typeof STOPS }) {
  const stop = STOPS[kind];
  const { mutate, mutation } = useDelete();
  return (
    <ConfirmButton
      trigger={{
        size: 'small',
        danger: true,
        icon: stop.icon,
        'aria-label': `${stop.label}: exportación ${record.id}`,
        children: stop.label,
      }}
      title={stop.title}
      content={stop.content}
      backText="Volver"
      okText={stop.okText}
      busy={mutation.isPending}
      onConfirm={(close) =>
        mutate(
          {
            resource: RESOURCE,
            id: record.id,
            successNotification: success(stop.done),
            errorNotification: serverError('No fue posible completar la operación'),
          },
          { onSettled: close },
        )
      }
    />
  );
}

/** Estado: the contract's label, and while it runs, how far it got. */
function StatusCell({ record }: { record: FhirExport }) {
  return (
    <Space direction="vertical" size={2}>
      <StatusChip value={statusChip(record.status)} />
      {isActive(record.status) && record.progress && (
        <Typography.Text type="secondary" className="fhir-export-progress">
          {record.progress}
        </Typography.Text>
      )}
    </Space>
  );
}

/** Tipos: 'Todos (9)' when every type was asked for, else each type's tag. */
function TypesCell({ types }: { types: string[] }) {
  return (
    <span className="fhir-export-types-cell">
      {types.length === EXPORT_TYPES.length ? (
        <Tag title={types.join(', ')}>Todos ({types.length})</Tag>
      ) : (
        types.map((t) => (
          <Tag key={t} title={t}>
            {typeName(t)}
          </Tag>
        ))
      )}
    </span>
  );
}

/**
 * Exportaciones FHIR, /fhir_exports (issue 37): the organisation's Bulk Data exports, whoever asked
 * (an API client or an administrator), newest first. An administrator starts one, downloads its
 * NDJSON files, cancels it or deletes its files. While one is queued or running the list reads
 * itself again every 2 s, and stops once none is. Only `admin` reads it, as the API does.
 */
export default function FhirExportsPage() {
  usePageTitle(TITLE);
  const { allowed } = roleAccess('administer');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [creating, setCreating] = useState(false);
  const [expanded, setExpanded] = useState<readonly number[]>([]);
  const timeZone = staffTimeZone();
  // From a tablet up, the actions stay in view when the table scrolls sideways (a laptop at 1280 px).
  const tablet = Grid.useBreakpoint().md === true;
  // On a phone each export is a card (issue 50): the table cut its actions off the screen.
  const phone = usePhoneLayout();
  const online = useOnline();
  const { query, result } = useList<FhirExport>({
    resource: RESOURCE,
    pagination: { currentPage: page, pageSize, mode: 'server' },
    sorters: [{ field: 'id', order: 'desc' }],
    queryOptions: {
      enabled: allowed,
      placeholderData: (previous) => previous,
      refetchInterval: (q) => pollInterval(q.state.data?.data),
    },
    errorNotification: loadFailed,
  });
  const list: AdminOnlyList<FhirExport> = {
    resource: RESOURCE,
    allowed,
    rows: result.data,
    // The polls after the first load do not dim the table.
    loading: query.isLoading,
    failed: query.isError || !online,
    read: query,
    pagination: {
      current: page,
      pageSize,
      total: result.total ?? 0,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZES,
      locale: { items_per_page: '/ página' },
      showTotal: (n) => `${n} ${n === 1 ? 'exportación' : 'exportaciones'}`,
      onChange: (p, size) => {
        setPage(size !== pageSize ? 1 : p);
        setPageSize(size);
      },
    },
  };
  const hasRows = list.rows.length > 0;
  // An empty table has no actions to keep in view (pinned, their header covered 'Creada' at 1280 px).
  const pinActions = tablet && hasRows;
  const toggle = (id: number) => setExpanded((keys) => (keys.includes(id) ? keys.filter((k) => k !== id) : [...keys, id]));
  const actions = (r: FhirExport) => (
    <>
      {(hasFiles(r) || r.status === 'failed') && (
        <Button size="small" icon={<FolderOpenOutlined />} aria-expanded={expanded.includes(r.id)} onClick={() => toggle(r.id)}>
          {r.status === 'failed' ? 'Ver error' : `${expanded.includes(r.id) ? 'Ocultar' : 'Ver'} archivos (${r.files.length})`}
        </Button>
      )}
      {isActive(r.status) && <StopButton record={r} kind="cancel" />}
      {r.status === 'completed' && <StopButton record={r} kind="delete" />}
    </>
  );
  const emptyText = emptyTextOf(list, 'Aún no hay exportaciones. Inicie la primera con «Nueva exportación».');

  return (
    <AdminOnlyListPage title={TITLE} forbidden="Solo los administradores ven y descargan las exportaciones FHIR" list={list}>
      <Card>
        <div className="fhir-export-intro">
          <div>
            <Typography.Title level={2} className="fhir-export-intro-title">
              ¿Qué es una exportación FHIR?
            </Typography.Title>
            <Typography.Paragraph type="secondary">
              Una copia de los datos de la institución en archivos NDJSON, en el formato HL7 FHIR R4: un archivo por tipo de dato y un
              recurso FHIR (un paciente, una medición…) por línea. Sirve para cargar todo de una vez en otro sistema, como la historia
              clínica de un hospital o una bodega de datos. Los archivos se conservan 24 horas (columna «Caduca») y luego se borran solos.
              Los clientes de API también pueden pedirlas; aquí se ven todas.
            </Typography.Paragraph>
          </div>
          <Button type="primary" icon={<CloudDownloadOutlined />} onClick={() => setCreating(true)}>
            Nueva exportación
          </Button>
        </div>
        {phone ? (
          <PhoneCards<FhirExport>
            label="Exportaciones"
            rows={list.rows}
            rowKey={(r) => r.id}
            loading={list.loading}
            empty={emptyText}
            title={(r) => `Exportación ${r.id} · ${scopeText(r)}`}
            fields={[
              { key: 'status', label: 'Estado', render: (r) => <StatusCell record={r} /> },
              { key: 'types', label: 'Tipos', render: (r) => <TypesCell types={r.types} /> },
              { key: 'created', label: 'Creada', render: (r) => formatWhen(r.created_at, timeZone) },
              { key: 'expires', label: 'Caduca', render: (r) => (r.expires_at ? formatWhen(r.expires_at, timeZone) : '—') },
              { key: 'resources', label: 'Recursos', render: (r) => count.format(r.resources) },
              { key: 'since', label: 'Desde', render: (r) => sinceText(r.since, timeZone) },
              { key: 'requested_by', label: 'Pedida por', render: (r) => r.requested_by },
            ]}
            actions={actions}
            below={(r) => (expanded.includes(r.id) ? <ExportFiles record={r} /> : null)}
            pagination={list.pagination}
          />
        ) : (
          <Table<FhirExport>
            rowKey="id"
            size="middle"
            // A pinned column would switch antd to a fixed layout, which breaks words ('instituci-ón'); columns size to their content.
            tableLayout="auto"
            loading={list.loading}
            dataSource={list.rows}
            pagination={list.pagination}
            // Wide enough for every column, with room to wrap (dates, names, types) instead of scrolling on a
            // laptop; an empty table fits its card (its headers alone would scroll, 'Acciones' cut at 1280 px).
            scroll={hasRows ? { x: 1000 } : undefined}
            locale={{ emptyText }}
            expandable={{
              expandedRowKeys: expanded,
              showExpandColumn: false,
              rowExpandable: (r) => hasFiles(r) || r.status === 'failed',
              expandedRowRender: (r) => <ExportFiles record={r} />,
            }}
            columns={[
              { title: 'Estado', key: 'status', width: 120, render: (_, r) => <StatusCell record={r} /> },
              { title: 'Alcance', key: 'scope', render: (_, r) => scopeText(r) },
              {
                title: 'Tipos',
                dataIndex: 'types',
                width: 150,
                render: (types: string[]) => <TypesCell types={types} />,
              },
              { title: 'Desde', dataIndex: 'since', render: (v: string | null) => sinceText(v, timeZone) },
              { title: 'Pedida por', dataIndex: 'requested_by', width: 170 },
              { title: 'Recursos', dataIndex: 'resources', align: 'right', render: (n: number) => count.format(n) },
              { title: 'Creada', dataIndex: 'created_at', render: (v: string) => formatWhen(v, timeZone) },
              { title: 'Caduca', dataIndex: 'expires_at', render: (v: string | null) => (v ? formatWhen(v, timeZone) : '—') },
              {
                title: 'Acciones',
                key: 'actions',
                width: 180,
                fixed: pinActions ? 'right' : undefined,
                render: (_, r) => (
                  <Space direction="vertical" size={4}>
                    {actions(r)}
                  </Space>
                ),
              },
            ]}
          />
        )}
      </Card>
      <NewExportDialog open={creating} onClose={() => setCreating(false)} />
    </AdminOnlyListPage>
  );
}
