import { useEffect, useState } from 'react';
import { useInvalidate, useNotification, useOne } from '@refinedev/core';
import { Link, Navigate, useParams } from 'react-router';
import { Alert, Button, Card, Descriptions, Form, Input, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, SaveOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { useFirstLoad } from '../../hooks/useFirstLoad';
import { usePageTitle } from '../../layout/usePageTitle';
import { formatWhen } from '@vigia/contract/rules/dates';
import { useApiMutation, type BodyOf } from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { loadFailedUnlessMissing, serverError, success } from '../../providers/notices';
import { roleAccess } from '../../providers/access';
import { staffTimeZone } from '../../session';
import { vaccinationBody, VaccinationForm } from '../../components/VaccinationForm';
import { elementField, GenericForm } from './GenericForm';
import { TeleconsultationForm } from './TeleconsultationForm';
import { DECEASED_REASON } from '../../components/record-access';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import '../../crud/crud.css';
import { countOf } from '@vigia/contract/rules/plural';

type Encounter = Schemas['Encounter'];
type Values = Record<string, unknown>;

function initialValues(e: Encounter): Values {
  const values: Values = {
    biological_type: e.biological_type ?? undefined,
    medication_id: e.medication_id ?? undefined,
    dose: e.dose ?? undefined,
    stock_id: e.stock_id ?? undefined,
    vaccination_card: e.vaccination_card ?? false,
    observations: e.observations ?? undefined,
  };
  for (const o of e.elements) values[elementField(o.clinical_element)] = o.value;
  return values;
}

/** The observation calls that save each element whose value is new or changed (the server keeps the before/after log). */
type ObservationWrite = { create: BodyOf<'/observations', 'post'> } | { update: number; values: BodyOf<'/observations/{id}', 'patch'> };
function observationWrites(e: Encounter, values: Values): ObservationWrite[] {
  const existing = new Map(e.elements.map((o) => [o.clinical_element, o]));
  const writes: ObservationWrite[] = [];
  for (const [key, raw] of Object.entries(values)) {
    if (!key.startsWith('element_') || raw === undefined || raw === null || String(raw).trim() === '') continue;
    const elementId = Number(key.slice('element_'.length));
    const value = String(raw).trim();
    const before = existing.get(elementId);
    if (!before) writes.push({ create: { encounter_id: e.id, clinical_element: elementId, value } });
    else if (before.value !== value) writes.push({ update: before.id, values: { value } });
  }
  return writes;
}

/** Encounter screen, /encounters/:id (03 §2): the patient's basic data and a vaccination or generic form. */
export default function EncounterPage() {
  usePageTitle('Atención');
  const { id } = useParams();
  const { query, result: e } = useOne<Encounter>({
    resource: 'encounters',
    id,
    errorNotification: loadFailedUnlessMissing,
  });
  const [form] = Form.useForm<Values>();
  const { open } = useNotification();
  const { mutateAsync } = useApiMutation();
  const invalidate = useInvalidate();
  const [saving, setSaving] = useState(false);
  // The form takes the encounter's values when it is first read; the reload after a save that failed
  // leaves what the person typed, with the server's messages under it.
  const loaded = useFirstLoad(e, query.isFetching, id);
  useEffect(() => {
    if (loaded) form.setFieldsValue(initialValues(loaded) as never);
  }, [loaded, form]);

  if (query.error?.statusCode === 404) return <Navigate to="/404notfound" replace />;
  const done = e?.status === 'Realizado';
  // The server's rule for encounter writes (encounters.service assertWritable): clinical.write,
  // never for a deceased patient.
  const roleRule = roleAccess('clinical.write');
  const access = e?.patient.status === PATIENT_STATUS.deceased && !done ? { allowed: false, reason: DECEASED_REASON } : roleRule;
  const tele = e?.kind === 'teleconsultation' && e.teleconsultation;

  const validate = async () => {
    try {
      await form.validateFields();
      open?.({ type: 'success', message: 'El formulario está completo; ya puede guardar la atención.' });
      return true;
    } catch {
      open?.({ type: 'error', message: 'Revise los campos marcados en rojo.' });
      return false;
    }
  };

  const save = async () => {
    if (!e || !(await validate())) return;
    const values = form.getFieldsValue(true);
    const failed = serverError('No fue posible guardar la atención');
    const body =
      e.kind === 'vaccination' ? vaccinationBody(values) : { observations: (values.observations as string | undefined)?.trim() || null };
    setSaving(true);
    try {
      // The elements first, one call each, then the encounter itself (which marks it Realizado).
      for (const write of e.kind === 'generic' ? observationWrites(e, values) : []) {
        const notices = { successNotification: false, errorNotification: failed } as const;
        if ('create' in write) await mutateAsync({ method: 'post', path: '/observations', values: write.create, ...notices });
        else
          await mutateAsync({
            method: 'patch',
            path: '/observations/{id}',
            params: { id: write.update },
            values: write.values,
            ...notices,
          });
      }
      await mutateAsync({
        method: 'put',
        path: '/encounters/{id}',
        params: { id: e.id },
        values: body,
        successNotification: success('Atención guardada: quedó en estado Realizado.'),
        errorNotification: failed,
      });
    } catch (error) {
      // The hook has said why; the server's field messages go under their fields.
      form.setFields(fieldErrors<Values>(error));
    } finally {
      setSaving(false);
      void invalidate({ resource: 'encounters', id: e.id, invalidates: ['detail'] });
    }
  };

  return (
    <PageHeader
      title={
        e
          ? e.kind === 'vaccination'
            ? 'Atención de vacunación'
            : e.kind === 'teleconsultation'
              ? 'Teleconsulta / telemonitoreo'
              : 'Atención general'
          : 'Atención'
      }
      extra={
        tele ? undefined : (
          <Space>
            <Tooltip title={access.reason}>
              <Button icon={<CheckCircleOutlined />} onClick={validate} disabled={!e || done || !access.allowed}>
                Validar
              </Button>
            </Tooltip>
            <Tooltip title={access.reason}>
              <Button type="primary" icon={<SaveOutlined />} onClick={save} loading={saving} disabled={!e || done || !access.allowed}>
                Guardar
              </Button>
            </Tooltip>
          </Space>
        )
      }
    >
      <Card loading={!e} style={{ marginBottom: 16 }} title="Paciente">
        {e && (
          <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} size="small">
            <Descriptions.Item label="Nombre">
              <Link to={`/patients/${e.patient.id}`}>{e.patient.full_name}</Link>
            </Descriptions.Item>
            <Descriptions.Item label={e.patient.id_type_name}>{e.patient.nid}</Descriptions.Item>
            <Descriptions.Item label="Edad">{countOf(e.patient.age, 'año', 'años')}</Descriptions.Item>
            <Descriptions.Item label="Género">{e.patient.gender_name}</Descriptions.Item>
            <Descriptions.Item label="Estado de la atención">
              <Tag color={done ? 'green' : 'gold'}>{e.status}</Tag>
            </Descriptions.Item>
            {done && e.checkout && <Descriptions.Item label="Realizada">{formatWhen(e.checkout, staffTimeZone())}</Descriptions.Item>}
            {done && <Descriptions.Item label="Responsable">{e.responsible_name ?? '—'}</Descriptions.Item>}
            {done && e.serial && (
              <Descriptions.Item label="Lote">
                <Link to={`/stocks/${e.stock_id}`}>{e.serial}</Link>
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Card>
      {e && tele && <TeleconsultationForm key={e.id} encounter={e} access={access} />}
      {e && loaded && !tele && (
        <Card>
          {done && <Typography.Paragraph type="secondary">La atención ya fue realizada; solo puede consultarse.</Typography.Paragraph>}
          {!done && !access.allowed && <Alert type="info" showIcon message={access.reason} style={{ marginBottom: 16 }} />}
          <Form form={form} layout="vertical" requiredMark style={{ maxWidth: 640 }} name="encounter" disabled={!access.allowed}>
            {e.kind === 'vaccination' ? (
              <VaccinationForm readOnly={done} />
            ) : (
              <>
                <GenericForm encounterId={e.id} observations={e.elements} readOnly={done} />
                <Form.Item name="observations" label="Observaciones generales">
                  <Input.TextArea disabled={done} autoSize={{ minRows: 2, maxRows: 6 }} maxLength={600} showCount />
                </Form.Item>
              </>
            )}
          </Form>
        </Card>
      )}
    </PageHeader>
  );
}
