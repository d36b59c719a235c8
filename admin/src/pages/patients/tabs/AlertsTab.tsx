import { useMemo, useState } from 'react';
import { useList } from '@refinedev/core';
import { Button, Card, Col, Empty, Modal, Row, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { EditOutlined } from '@ant-design/icons';
import { elementName, elementUnit } from '@vigia/contract/rules/alarms';
import { AlertCard } from '../../../components/alerts/AlertCard';
import { AlertFilters } from '../../../components/alerts/AlertFilters';
import { ClosedAlertsTable } from '../../../components/alerts/ClosedAlertsTable';
import { PRIORITY_COLORS } from '../../../components/alerts.data';
import '../../../components/alerts/alerts.css';
import type { Schemas } from '../../../contract';
import type { PatientTabProps } from '../types';
import { asFilters } from '../../../providers/data';
import { useApiQuery } from '../../../providers/calls';
import { logOnly } from '../../../providers/notices';
import { useInvalidatePaths } from '../../../providers/queries';
import { usePatientUpdate } from '../hooks/usePatientUpdate';
import { SectionTitle } from '../../../components/SectionTitle';
import { ReadFailedAlert, ReadState, ReadStateView, useReadState } from '../../../ui/ReadState';

type Alert = Schemas['Alert'];
type Alarm = Schemas['Alarm'];
type PatientAlarm = Schemas['PatientAlarm'];
type Params = Record<string, string | number | undefined>;

/** 'Asignar alertas': search select of the client's rules, removable chips, Guardar only after a change (02 §2.7, §4). */
function AssignDialog({
  open,
  patientId,
  assigned,
  onClose,
  onSaved,
}: {
  open: boolean;
  patientId: number;
  assigned: PatientAlarm[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const [ids, setIds] = useState<number[]>(() => assigned.map((a) => a.id));
  // Opening the dialog (or a new assignment from the server) starts again from what is assigned.
  const [shown, setShown] = useState({ open, assigned });
  if (shown.open !== open || shown.assigned !== assigned) {
    setShown({ open, assigned });
    if (open) setIds(assigned.map((a) => a.id));
  }
  // The client's rules by name, read each time the dialog opens.
  const { result, query } = useList<Alarm>({
    resource: 'alarms',
    pagination: { currentPage: 1, pageSize: 100 },
    sorters: [{ field: 'name', order: 'asc' }],
    queryOptions: { enabled: open },
    errorNotification: logOnly('alertas configuradas'),
  });
  const all = result.data;
  const rules = useReadState([query], all.length === 0, 'las alertas configuradas');
  const { save: savePatient, saving } = usePatientUpdate(patientId);
  const original = assigned
    .map((a) => a.id)
    .sort()
    .join(',');
  const changed = [...ids].sort().join(',') !== original;
  const byId = new Map(all.map((a) => [a.id, a]));
  const save = async () => {
    if (await savePatient({ alarm_ids: ids })) onSaved();
  };
  return (
    <Modal
      open={open}
      title="Asignar alertas"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          Cerrar
        </Button>,
        <Button key="save" type="primary" disabled={!changed} loading={saving} onClick={save}>
          Guardar
        </Button>,
      ]}
    >
      <ReadFailedAlert status={rules} />
      <Typography.Text>Alertas configuradas</Typography.Text>
      <Select
        showSearch
        aria-label="Alertas configuradas"
        placeholder="Buscar alerta configurada"
        style={{ width: '100%', margin: '6px 0 12px' }}
        value={null}
        optionFilterProp="label"
        // Already-assigned rules are not offered again (02 §4).
        options={all.filter((a) => !ids.includes(a.id)).map((a) => ({ value: a.id, label: `${a.name} · ${a.clinical_element_name}` }))}
        onChange={(id: number | null) => id != null && setIds((prev) => [...new Set([...prev, id])])}
      />
      <Space wrap>
        {ids.length === 0 && <Typography.Text type="secondary">No Hay alertas asignadas</Typography.Text>}
        {ids.map((id) => {
          const rule = byId.get(id) ?? assigned.find((a) => a.id === id);
          return (
            <Tag
              key={id}
              closable
              color={PRIORITY_COLORS[rule?.priority ?? 3]}
              onClose={() => setIds((prev) => prev.filter((x) => x !== id))}
            >
              {rule?.name ?? `#${id}`}
            </Tag>
          );
        })}
      </Space>
    </Modal>
  );
}

/** Tab 'Alertas' of the patient page (02 §2.7). */
export default function AlertsTab({ patient, active }: PatientTabProps) {
  const [page, setPage] = useState({ page: 1, size: 10 });
  const [filters, setFilters] = useState<Params>({});
  const [assigning, setAssigning] = useState(false);
  const canConfig = patient.permissions.config_alerts;
  const alertsPath = `/patients/${patient.id}/alerts`;
  const alarmsPath = `/patients/${patient.id}/alarms`;
  const refresh = useInvalidatePaths();

  // Read while the tab is the visible one; showing it again reads afresh (01 §2). A failure is said in
  // place (P212), never as an empty list.
  const openAlerts = (alertType: number) => ({
    resource: alertsPath.slice(1),
    pagination: { mode: 'off' as const },
    filters: asFilters({ status: 1, alert_type: alertType, per_page: 100 }),
    queryOptions: { enabled: active },
    errorNotification: logOnly('alertas abiertas'),
  });
  const measurement = useList<Alert>(openAlerts(0));
  const ai = useList<Alert>(openAlerts(3));
  const openReads = [measurement.query, ai.query];
  const open = [...measurement.result.data, ...ai.result.data].sort((a, b) => b.created_at.localeCompare(a.created_at));
  const closedRead = useList<Alert>({
    resource: alertsPath.slice(1),
    pagination: { mode: 'off' },
    filters: asFilters({ status: 2, page: page.page, per_page: page.size, ...filters }),
    queryOptions: { enabled: active },
    errorNotification: logOnly('alertas cerradas'),
  });
  const closed = { rows: closedRead.result.data, total: closedRead.result.total ?? 0, loading: closedRead.query.isFetching };
  const alarmsRead = useApiQuery('/patients/{id}/alarms', {
    params: { id: patient.id },
    queryOptions: { enabled: active },
    errorNotification: logOnly('alertas asignadas'),
  });
  const alarms = useMemo(() => alarmsRead.query.data?.data ?? [], [alarmsRead.query.data]);
  const assignedState = useReadState([alarmsRead.query], alarms.length === 0, 'las alertas asignadas');
  // Saving from an assignment that could not be read would drop the patient's rules.
  const canAssign = canConfig && (assignedState.phase === 'ready' || assignedState.phase === 'empty');

  const grouped = useMemo(() => [...alarms].sort((a, b) => a.clinical_element - b.clinical_element), [alarms]);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xxl={16}>
        <SectionTitle>Alertas abiertas</SectionTitle>
        <ReadState
          reads={openReads}
          what="las alertas abiertas"
          isEmpty={open.length === 0}
          loading={<Skeleton active />}
          empty={<Empty description="No existen Alertas por gestionar" />}
        >
          <div className="alert-grid three">
            {open.map((a) => (
              <AlertCard key={a.id} alert={a} source="patient" />
            ))}
          </div>
        </ReadState>
        <SectionTitle style={{ marginTop: 24 }}>Alertas cerradas</SectionTitle>
        <AlertFilters
          keys={['alert_type', 'clinical_element', 'priority']}
          applyLabel="Filtrar"
          onApply={(p) => {
            setFilters(p);
            setPage((s) => ({ ...s, page: 1 }));
          }}
        />
        <ReadState reads={[closedRead.query]} what="las alertas cerradas" isEmpty={closed.rows.length === 0}>
          <ClosedAlertsTable
            rows={closed.rows}
            total={closed.total}
            loading={closed.loading}
            page={page.page}
            pageSize={page.size}
            onPage={(p, size) => setPage({ page: p, size })}
          />
        </ReadState>
      </Col>
      <Col xs={24} xxl={8}>
        <Card
          size="small"
          title="Asignación de alertas"
          extra={
            <Tooltip
              title={
                !canConfig
                  ? 'Su rol no permite realizar esta acción.'
                  : canAssign
                    ? 'Asignar alertas'
                    : 'Primero deben cargarse las alertas asignadas.'
              }
            >
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label="Asignar alertas"
                disabled={!canAssign}
                onClick={() => setAssigning(true)}
              />
            </Tooltip>
          }
        >
          <ReadStateView
            status={assignedState}
            empty={<Empty description="No Hay alertas asignadas" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
          >
            <Space direction="vertical" style={{ width: '100%' }}>
              {grouped.map((a) => (
                <Card key={a.id} size="small" style={{ borderLeft: `4px solid ${PRIORITY_COLORS[a.priority]}` }}>
                  <Typography.Text type="secondary">{elementName(a.clinical_element)}</Typography.Text>
                  <br />
                  <Typography.Text strong>{a.name}</Typography.Text>
                  <br />
                  <Typography.Text>
                    valores entre: {a.minimum_condition} y {a.maximum_condition} {elementUnit(a.clinical_element)}
                  </Typography.Text>
                </Card>
              ))}
            </Space>
          </ReadStateView>
          <Space style={{ marginTop: 12 }} size={12} wrap>
            <Tag color={PRIORITY_COLORS[3]}>Baja</Tag>
            <Tag color={PRIORITY_COLORS[2]}>Media</Tag>
            <Tag color={PRIORITY_COLORS[1]}>Alta</Tag>
          </Space>
        </Card>
        <AssignDialog
          open={assigning}
          patientId={patient.id}
          assigned={alarms}
          onClose={() => setAssigning(false)}
          onSaved={() => {
            setAssigning(false);
            void refresh(alertsPath, alarmsPath);
          }}
        />
      </Col>
    </Row>
  );
}
