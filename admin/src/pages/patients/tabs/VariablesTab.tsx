import { ReadStateView, useReadState } from '../../../ui/ReadState';
import { lazy, Suspense, useState } from 'react';
import { Button, Card, Empty, Form, Input, Modal, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { useApiMutation, useApiQuery } from '../../../providers/calls';
import { serverError, logOnly, success } from '../../../providers/notices';
import { useInvalidatePaths } from '../../../providers/queries';
import { recordWriteState } from '../../../components/record-access';
import type { PatientTabProps } from '../types';
import './record-tabs.css';
import { SectionTitle } from '../../../components/SectionTitle';

type Variable = Schemas['PatientClinicalVariable'];

// The chart library is large: it lands in its own chunk, loaded with the first numeric variable.
const MeasurementChart = lazy(() => import('../../../charts/MeasurementChart'));

function VariableCard({ variable, timeZone }: { variable: Variable; timeZone: string }) {
  const numeric = variable.type === 'numeric';
  // Placed by when they were taken (a time axis), not one step per value.
  const points = variable.observations.map((o) => ({ when: Date.parse(o.date), value: Number(o.value) }));
  const unit = variable.unit ? ` (${variable.unit})` : '';
  return (
    <Card
      size="small"
      title={
        <span>
          {variable.name}
          {unit}
        </span>
      }
      extra={variable.loinc_code ? <Tag>LOINC {variable.loinc_code}</Tag> : null}
    >
      <Table
        size="small"
        rowKey="id"
        pagination={variable.observations.length > 5 ? { pageSize: 5, size: 'small' } : false}
        dataSource={[...variable.observations].reverse()}
        columns={[
          { title: 'Fecha', dataIndex: 'formated_date' },
          {
            title: 'Valor',
            dataIndex: 'value',
            render: (v: number | string) => (numeric ? `${v}${variable.unit ? ` ${variable.unit}` : ''}` : v),
          },
        ]}
      />
      {numeric &&
        (points.length < 2 ? (
          <Typography.Paragraph type="secondary">No hay suficientes datos para mostrar un gráfico</Typography.Paragraph>
        ) : (
          <div className="variable-chart">
            <Suspense fallback={<Spin />}>
              <MeasurementChart
                series={[{ name: variable.name, points }]}
                bands={[]}
                unit={variable.unit ?? ''}
                timeZone={timeZone}
                height={220}
              />
            </Suspense>
          </div>
        ))}
    </Card>
  );
}

/** Tab 'Variables' of the patient page (01 §2): clinical variables with their values. */
export default function VariablesTab({ patient, active }: PatientTabProps) {
  const [adding, setAdding] = useState(false);
  const [choice, setChoice] = useState<number | undefined>();
  const [value, setValue] = useState('');
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  const path = `/patients/${patient.id}/clinical_observations`;
  // Read while the tab is the visible one; showing it again reads afresh (01 §2).
  const { query } = useApiQuery('/patients/{id}/clinical_observations', {
    params: { id: patient.id },
    queryOptions: { enabled: active },
    // Logged, and said in place with 'Reintentar' (P212, superseding 01 §8's 'logged only').
    errorNotification: logOnly('variables clínicas'),
  });
  // Becoming visible again shows the spinner until the fresh answer, as on the first read; a failed
  // read keeps what was read, marked (ReadState).
  const variables = query.isFetching ? null : (query.data?.data ?? []);
  const readState = useReadState([query], (query.data?.data ?? []).length === 0, 'las variables clínicas');
  // The catalogue is read once, with the first 'Registrar valor'.
  const [wantCatalogue, setWantCatalogue] = useState(false);
  const catalogueQuery = useApiQuery('/clinical_variables', {
    queryOptions: { enabled: wantCatalogue, staleTime: Infinity },
    errorNotification: serverError('No fue posible cargar las variables clínicas'),
  });
  const catalogue = catalogueQuery.query.data?.data ?? [];
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();

  const open = () => {
    setChoice(undefined);
    setValue('');
    setAdding(true);
    setWantCatalogue(true);
  };

  const save = () => {
    if (choice === undefined || !value.trim()) return;
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/clinical_observations',
        params: { id: patient.id },
        values: { clinical_variable_id: choice, value: value.trim() },
        successNotification: success('Valor registrado'),
        errorNotification: serverError('No fue posible registrar el valor'),
      },
      {
        onSuccess: () => {
          setAdding(false);
          void refresh(path);
        },
      },
    );
  };

  const selected = catalogue.find((v) => v.id === choice);
  return (
    <div className="record-tab">
      <div className="record-tab-head">
        <SectionTitle>Variables clínicas</SectionTitle>
        <Tooltip title={canWrite ? undefined : reason}>
          <Button icon={<PlusOutlined />} disabled={!canWrite} onClick={open}>
            Registrar valor
          </Button>
        </Tooltip>
      </div>
      {variables === null ? (
        <Spin tip="Cargando variables clínicas...">
          <div style={{ minHeight: 80 }} />
        </Spin>
      ) : (
        <ReadStateView status={readState} empty={<Empty description="No hay variables clínicas disponibles para este paciente." />}>
          <div className="variables-grid">
            {variables.map((v) => (
              <VariableCard key={v.id} variable={v} timeZone={patient.time_zone} />
            ))}
          </div>
        </ReadStateView>
      )}
      <Modal
        open={adding}
        title="Registrar valor de variable clínica"
        onCancel={() => setAdding(false)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setAdding(false)}>
            Cancelar
          </Button>,
          <Button key="save" type="primary" loading={saving} disabled={choice === undefined || !value.trim()} onClick={save}>
            Guardar
          </Button>,
        ]}
      >
        <Form layout="vertical">
          <Form.Item label="Variable" htmlFor="variable-id">
            <Select
              id="variable-id"
              showSearch
              optionFilterProp="label"
              placeholder="Seleccione la variable"
              value={choice}
              onChange={setChoice}
              options={catalogue.map((v) => ({ value: v.id, label: `${v.name}${v.unit ? ` (${v.unit})` : ''}` }))}
            />
          </Form.Item>
          <Form.Item
            label="Valor"
            htmlFor="variable-value"
            extra={selected?.type === 'numeric' ? 'Número; use punto o coma para los decimales.' : undefined}
          >
            <Input
              id="variable-value"
              value={value}
              maxLength={600}
              inputMode={selected?.type === 'numeric' ? 'decimal' : 'text'}
              onChange={(e) => setValue(e.target.value)}
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
