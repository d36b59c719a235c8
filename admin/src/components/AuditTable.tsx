import { useMemo, useState } from 'react';
import { useList, type CrudFilter } from '@refinedev/core';
import { ReadState } from '../ui/ReadState';
import { Descriptions, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import type { Schemas } from '../contract';
import { contractDoc } from '../crud/contract-doc';
import { enumLabel, objectSchema } from '../crud/schema-rules';
import { formatWhen } from '@vigia/contract/rules/dates';
import { serverError } from '../providers/notices';
import { staffTimeZone } from '../session';
import { countOf } from '@vigia/contract/rules/plural';

export type AuditEvent = Schemas['AuditEvent'];
export interface AuditQuery {
  user_id?: number;
  resource?: string;
  from?: string;
  to?: string;
}

const PAGE_SIZE = 20;
const ACTION_COLORS: Partial<Record<AuditEvent['action'], string>> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  close: 'purple',
  sign_in: 'default',
  sign_in_failed: 'volcano',
  sign_out: 'default',
};

/** Who acted when no user is named (a patient from the portal, a device, the system). */
const ACTOR_LABELS: Record<AuditEvent['actor_kind'], string> = {
  staff: 'Usuario eliminado',
  patient: 'El paciente',
  device: 'Dispositivo',
  system: 'Sistema',
};

const actionSchema = () => objectSchema(contractDoc, 'AuditAction');
const resourceSchema = () => objectSchema(contractDoc, 'AuditResource');

/** A stored value as text: lists and objects as compact JSON, nothing as '—'. */
function showValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Changes({ event }: { event: AuditEvent }) {
  const entries = Object.entries(event.changes ?? {});
  return (
    <div className="audit-changes">
      {entries.length ? (
        <Descriptions size="small" column={1} bordered title="Cambios enviados">
          {entries.map(([field, value]) => (
            <Descriptions.Item key={field} label={field}>
              <Typography.Text code={typeof value === 'object' && value !== null}>{showValue(value)}</Typography.Text>
            </Descriptions.Item>
          ))}
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">La acción no envió datos.</Typography.Text>
      )}
      <Typography.Paragraph type="secondary" className="audit-request">
        {event.method} {event.path} · respuesta {event.status}
        {event.ip ? ` · IP ${event.ip}` : ''}
      </Typography.Paragraph>
    </div>
  );
}

/**
 * The audit trail as a paged table (issue 8): when (in the staff user's zone), who, what and the
 * fields sent, expandable. Used by the 'Auditoría' page and the patient page's 'Auditoría' tab.
 */
export function AuditTable({
  path,
  query,
  showPatient,
  active = true,
}: {
  path: string;
  query: AuditQuery;
  showPatient?: boolean;
  active?: boolean;
}) {
  const timeZone = staffTimeZone();
  const key = JSON.stringify(query);
  // A new query goes back to the first page.
  const [paging, setPaging] = useState({ key, page: 1 });
  const page = paging.key === key ? paging.page : 1;
  const filters: CrudFilter[] = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([field, value]) => ({ field, operator: 'eq', value }));
  const { query: list, result } = useList<AuditEvent>({
    resource: path.replace(/^\//, ''),
    filters,
    pagination: { currentPage: page, pageSize: PAGE_SIZE, mode: 'server' },
    queryOptions: { enabled: active, placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar la auditoría'),
  });
  const rows = result.data;
  const total = result.total ?? 0;
  const loading = list.isFetching;

  const columns = useMemo<ColumnsType<AuditEvent>>(() => {
    const cols: ColumnsType<AuditEvent> = [
      { title: 'Fecha', dataIndex: 'created_at', width: 150, render: (v: string) => formatWhen(v, timeZone) },
      {
        title: 'Usuario',
        dataIndex: 'user_name',
        render: (name: string | null, e) => name ?? ACTOR_LABELS[e.actor_kind],
      },
      {
        title: 'Acción',
        dataIndex: 'action',
        width: 170,
        render: (a: AuditEvent['action']) => <Tag color={ACTION_COLORS[a] ?? 'default'}>{enumLabel(actionSchema(), a)}</Tag>,
      },
      {
        title: 'Recurso',
        dataIndex: 'resource',
        width: 160,
        render: (r: AuditEvent['resource'], e) => `${enumLabel(resourceSchema(), r)}${e.resource_id ? ` #${e.resource_id}` : ''}`,
      },
    ];
    if (showPatient) {
      cols.push({
        title: 'Paciente',
        dataIndex: 'patient_name',
        render: (name: string | null, e) =>
          e.patient_id ? <Link to={`/patients/${e.patient_id}?tab=audit`}>{name ?? `#${e.patient_id}`}</Link> : '—',
      });
    }
    cols.push({ title: 'Resumen', dataIndex: 'summary' });
    return cols;
  }, [showPatient, timeZone]);

  // A failed read says so in place (P212), never 'No hay eventos de auditoría para mostrar.'.
  return (
    <ReadState reads={[list]} what="la auditoría" isEmpty={rows.length === 0}>
      <Table<AuditEvent>
        rowKey="id"
        size="small"
        className="audit-table"
        loading={loading}
        dataSource={rows}
        columns={columns}
        scroll={{ x: 760 }}
        expandable={{
          columnTitle: <span className="vigia-sr-only">Detalle</span>,
          expandedRowRender: (e) => <Changes event={e} />,
          rowExpandable: () => true,
        }}
        locale={{ emptyText: 'No hay eventos de auditoría para mostrar.' }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total,
          showSizeChanger: false,
          onChange: (p) => setPaging({ key, page: p }),
          showTotal: (n) => countOf(n, 'evento', 'eventos'),
        }}
      />
    </ReadState>
  );
}
