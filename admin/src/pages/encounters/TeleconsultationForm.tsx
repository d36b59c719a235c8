import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useInvalidate } from '@refinedev/core';
import { Alert, Button, Card, Col, Divider, Form, Input, InputNumber, List, Row, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { RadioGroup, Select } from '../../crud/form-controls';
import { formatWhen } from '@vigia/contract/rules/dates';
import { rdaComplete, type RdaGap } from '@vigia/contract/rules/rda';
import { correctionReasonOf } from '@vigia/contract/rules/teleconsultations';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { DECEASED_REASON } from '../../components/record-access';
import { RdaVersions, rdaStatusText, rdaVersionText } from '../../components/rda-status';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { fieldErrors, isHttpError } from '../../providers/errors';
import { logOnly, serverError, success } from '../../providers/notices';
import { readSession, staffTimeZone } from '../../session';
import { ReadFailedAlert, ReadStateView, useReadState, type Read } from '../../ui/ReadState';
import {
  draftChanged,
  gapsOfRefusal,
  gapTarget,
  liveGaps,
  MAX_RELATED,
  medicationsKnown,
  NO_RISK_FACTORS,
  NO_SICK_LEAVE_CHOICE,
  rdaPollInterval,
  teleconsultationBody,
  valuesOf,
  type TeleconsultationValues,
} from './teleconsultation-form';
import './teleconsultation.css';

type Encounter = Schemas['Encounter'];
type CodeList =
  | 'cups_consultations'
  | 'reps_services'
  | 'care_environments'
  | 'tech_modalities'
  | 'external_causes'
  | 'diagnosis_types'
  | 'license_scopes'
  | 'risk_factors';
type Option = { value: string; label: string };

const FORM_NAME = 'teleconsultation';
const NONE: never[] = [];
const READINGS_SHOWN = 60;

/** A guide code list as options labelled 'code · name' (the code is what is stored and sent). */
function useCodeList(list: CodeList, withCode = true): { options: Option[]; read: Read } {
  const { query } = useApiQuery('/listings/{list_name}', {
    params: { list_name: list },
    queryOptions: { staleTime: Infinity },
    errorNotification: logOnly(`listado ${list}`),
  });
  const data = query.data?.data?.data;
  const options = useMemo(
    () => (data ? Object.entries(data).map(([value, name]) => ({ value, label: withCode ? `${value} · ${name}` : name })) : NONE),
    [data, withCode],
  );
  return { options, read: query };
}

/** Whether an option's label holds what was typed, accents and case aside. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
const filterByLabel = (input: string, option?: { label?: unknown }) => fold(String(option?.label ?? '')).includes(fold(input));

/**
 * The ICD-10 CO search (12.634 codes, never loaded whole): the server answers at most 20 codes
 * whose code starts with, or whose name holds, what was typed.
 */
function Icd10Select(props: {
  value?: string | string[] | null;
  onChange?: (v: unknown) => void;
  id?: string;
  mode?: 'multiple';
  known: Record<string, string>;
  disabled?: boolean;
  placeholder: string;
  maxCount?: number;
}) {
  const { known, ...rest } = props;
  const [typed, setTyped] = useState('');
  const q = useDeferredValue(typed.trim());
  const { query } = useApiQuery('/listings/{list_name}', {
    params: { list_name: 'icd10co' },
    query: { q },
    queryOptions: { staleTime: 5 * 60_000, enabled: !props.disabled },
    errorNotification: logOnly('búsqueda CIE-10'),
  });
  // The names of the codes seen, so a chosen code keeps its name after the next search.
  const seen = useRef<Record<string, string>>({ ...known });
  const found = query.data?.data?.data ?? {};
  Object.assign(seen.current, found);
  const chosen = (Array.isArray(props.value) ? props.value : props.value ? [props.value] : []).filter((c) => !(c in found));
  const options = [...chosen, ...Object.keys(found)].map((code) => ({
    value: code,
    label: `${code} · ${seen.current[code] ?? known[code] ?? ''}`,
  }));
  return (
    <Select
      {...rest}
      showSearch
      allowClear
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      options={options}
      notFoundContent={
        query.isError ? 'No fue posible buscar en la CIE-10; intente de nuevo.' : query.isFetching ? 'Buscando…' : 'Sin coincidencias'
      }
    />
  );
}

/**
 * The gaps of the RDA, each with where it is fixed; required ones first. `onLeave`, when given, takes
 * a plain click on a link to another screen (the draft is saved before it goes there).
 */
function GapsList({ gaps, onField, onLeave }: { gaps: RdaGap[]; onField: (field: string) => void; onLeave?: (to: string) => void }) {
  const ordered = [...gaps].sort((a, b) => Number(b.required) - Number(a.required));
  return (
    <List
      size="small"
      className="rda-gaps"
      dataSource={ordered}
      rowKey={(g) => `${g.record}-${g.id}-${g.field}-${g.message}`}
      renderItem={(g) => {
        const target = gapTarget(g.record, g.id, g.field, g.message);
        return (
          <List.Item>
            <div className="rda-gap">
              <span>
                <Tag color={g.required ? 'red' : 'default'}>{g.required ? 'Obligatorio' : 'Recomendado'}</Tag>
                {g.message}
              </span>
              {'to' in target ? (
                <Link
                  to={target.to}
                  onClick={(event) => {
                    // A click that opens another tab or window leaves this screen as it is.
                    if (!onLeave || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                    event.preventDefault();
                    onLeave(target.to);
                  }}
                >
                  {target.label}
                </Link>
              ) : (
                <Button type="link" size="small" onClick={() => onField(target.field)} style={{ padding: 0 }}>
                  {target.label}
                </Button>
              )}
            </div>
          </List.Item>
        );
      }}
    />
  );
}

const RDA_STATUS_COLOR: Record<string, string> = {
  sin_enviar: 'default',
  pendiente: 'gold',
  enviado: 'green',
  rechazado: 'red',
  corregido: 'blue',
};

/**
 * The RDA of a closed teleconsultation (its latest version, `rda_id`): its status and, once it has
 * notas aclaratorias, every version with its reason (GET /rdas/{id} answers the history).
 */
function RdaHistory({ rdaId }: { rdaId: number }) {
  const { query } = useApiQuery('/rdas/{id}', {
    params: { id: rdaId },
    // Read again while the send job has it, so 'Pendiente' becomes 'Enviado' (or 'Rechazado') on screen.
    queryOptions: { refetchInterval: (q) => rdaPollInterval(q.state.data?.data?.status) },
    errorNotification: logOnly('RDA de la teleconsulta'),
  });
  const rda = query.data?.data;
  const status = useReadState([query], !rda, 'el estado del RDA');
  const zone = staffTimeZone();
  return (
    <ReadStateView status={status} empty={<Typography.Text type="secondary">RDA: aún no registrado</Typography.Text>}>
      {rda && (
        <Space direction="vertical" size={4} style={{ width: '100%' }}>
          <Space wrap>
            <Tag color={RDA_STATUS_COLOR[rda.status]} className="rda-status">
              RDA: {rdaStatusText(rda.status)}
            </Tag>
            <Typography.Text type="secondary">{rdaVersionText(rda)}</Typography.Text>
            {rda.status !== 'enviado' && rda.status_reason && rda.versions.length < 2 && (
              <Typography.Text type="secondary">{rda.status_reason}</Typography.Text>
            )}
          </Space>
          {rda.versions.length > 1 && (
            <div className="rda-history">
              <Typography.Text strong>Versiones del RDA</Typography.Text>
              <RdaVersions versions={rda.versions} timeZone={zone} />
            </div>
          )}
        </Space>
      )}
    </ReadStateView>
  );
}

/**
 * 'Teleconsulta / telemonitoreo' (issue 51; docs/rda-plan.md §2.5–2.6): the consultation's draft,
 * saved whole ('Guardar borrador'), what its RDA still lacks with where each thing is fixed, and
 * 'Cerrar teleconsulta', which the server refuses (409 rda_incomplete) while a required item is
 * missing. Closed, it is read-only with its RDA's status.
 */
export function TeleconsultationForm({ encounter, access }: { encounter: Encounter; access: { allowed: boolean; reason?: string } }) {
  const t = encounter.teleconsultation!;
  const done = encounter.status === 'Realizado';
  // The nota aclaratoria: the same writers as the close, never on a deceased patient's record (the server's rule).
  const amendAccess = encounter.patient.status === PATIENT_STATUS.deceased ? { allowed: false, reason: DECEASED_REASON } : access;
  const [amending, setAmending] = useState(false);
  const editable = done ? amending && amendAccess.allowed : access.allowed;
  const [amendForm] = Form.useForm<{ reason?: string }>();
  const session = readSession();
  const clientId = session?.client_id ?? 0;
  const zone = staffTimeZone();
  const [form] = Form.useForm<TeleconsultationValues>();
  const initial = useMemo(() => valuesOf(t), [t]);
  const [values, setValues] = useState<TeleconsultationValues>(initial);
  const [refusal, setRefusal] = useState<RdaGap[] | null>(null);
  const { mutateAsync, mutation } = useApiMutation();
  const [closing, setClosing] = useState(false);
  const invalidate = useInvalidate();
  const navigate = useNavigate();

  const lists = {
    cups: useCodeList('cups_consultations'),
    reps: useCodeList('reps_services'),
    environments: useCodeList('care_environments', false),
    modalities: useCodeList('tech_modalities', false),
    causes: useCodeList('external_causes', false),
    diagnosisTypes: useCodeList('diagnosis_types', false),
    scopes: useCodeList('license_scopes', false),
    risks: useCodeList('risk_factors'),
  };
  const readings = useApiQuery('/patients/{id}/measurements', {
    params: { id: encounter.patient_id },
    query: { order: 'desc', _start: 0, _end: READINGS_SHOWN },
    errorNotification: logOnly('mediciones del paciente'),
  }).query;
  const client = useApiQuery('/clients/{id}', {
    params: { id: clientId },
    queryOptions: { enabled: clientId > 0 },
    errorNotification: logOnly('sedes de la institución'),
  }).query;
  const gapsRead = useApiQuery('/encounters/{id}/rda_gaps', {
    params: { id: encounter.id },
    queryOptions: { enabled: editable && !done },
    errorNotification: logOnly('faltantes del RDA'),
  }).query;

  const reads = [...Object.values(lists).map((l) => l.read), readings, client];
  const formState = useReadState(reads, false, 'los datos de la teleconsulta');
  const gapsState = useReadState([gapsRead], false, 'lo que le falta al RDA');

  const readingRows = useMemo(() => {
    const data = readings.data?.data;
    return Array.isArray(data) ? data : NONE;
  }, [readings.data]);
  const readingOptions = useMemo(() => {
    const options = readingRows.map((m) => ({
      value: m.id,
      label: `${m.clinical_element_name}: ${m.value.toLocaleString('es-CO', { maximumFractionDigits: 1 })} ${m.clinical_element_unit} · ${formatWhen(m.when, zone)}`,
    }));
    // A reading reviewed earlier than the ones listed keeps its place, by its number.
    for (const id of t.reading_ids) if (!options.some((o) => o.value === id)) options.push({ value: id, label: `Medición ${id}` });
    return options;
  }, [readingRows, t.reading_ids, zone]);
  const sites = (client.data?.data?.sites ?? NONE).map((s) => ({ value: s.id, label: s.name }));
  const knownDiagnoses = useMemo(() => Object.fromEntries(t.diagnoses.map((d) => [d.code, d.name])), [t.diagnoses]);

  const serverGaps = gapsRead.data?.data?.gaps ?? NONE;
  const medications = medicationsKnown(serverGaps, t.medication_note);
  // Closed, the parties' gaps are the server's answer to the nota aclaratoria (409); the consultation's are live.
  const gaps = refusal ?? liveGaps(done ? NONE : serverGaps, encounter.id, values, medications);
  const complete = rdaComplete(gaps);
  const requiredCount = gaps.filter((g) => g.required).length;
  const showMedication = medications === 0 || !!values.medication_note;

  const focusField = (field: string) => {
    const node = document.getElementById(`${FORM_NAME}_${field}`) ?? document.querySelector(`[data-field="${field}"]`);
    if (!node) return;
    node.scrollIntoView({ behavior: 'smooth', block: 'center' });
    const input = node.matches('input, textarea') ? node : node.querySelector('input, textarea, button');
    (input as HTMLElement | null)?.focus({ preventScroll: true });
  };

  const refresh = () => {
    void invalidate({ resource: 'encounters', id: encounter.id, invalidates: ['detail'] });
    void gapsRead.refetch();
  };

  const saveDraft = async (notify: boolean) => {
    await form.validateFields();
    const body = teleconsultationBody(form.getFieldsValue(true));
    await mutateAsync({
      method: 'patch',
      path: '/encounters/{id}/teleconsultation',
      params: { id: encounter.id },
      values: body,
      successNotification: notify ? success('Borrador guardado') : false,
      errorNotification: serverError('No fue posible guardar el borrador'),
    });
  };

  // A gap fixed on another screen (the patient's record, the user, the institution): what the form
  // holds is saved first, so coming back finds the consultation as it was left.
  const leaveTo = async (to: string) => {
    if (draftChanged(initial, form.getFieldsValue(true))) {
      try {
        await saveDraft(true);
        // The stored encounter read again before leaving: the form is built from it on coming back.
        await invalidate({ resource: 'encounters', id: encounter.id, invalidates: ['detail'] });
      } catch (error) {
        form.setFields(fieldErrors(error) as never);
        return;
      }
    }
    navigate(to);
  };

  const onSave = async () => {
    try {
      await saveDraft(true);
      setRefusal(null);
    } catch (error) {
      form.setFields(fieldErrors(error) as never);
    } finally {
      refresh();
    }
  };

  const onClose = async () => {
    setClosing(true);
    try {
      await saveDraft(false);
      await mutateAsync({
        method: 'post',
        path: '/encounters/{id}/close',
        params: { id: encounter.id },
        successNotification: success('Teleconsulta cerrada: su RDA quedó registrado.'),
        errorNotification: (error) =>
          error?.code === 'rda_incomplete' ? false : serverError('No fue posible cerrar la teleconsulta')(error),
      });
      setRefusal(null);
    } catch (error) {
      if (isHttpError(error) && error.code === 'rda_incomplete') {
        const list = Object.entries(error.errors ?? {}).flatMap(([field, messages]) =>
          (Array.isArray(messages) ? messages : [messages]).map((message) => ({ field, message: String(message) })),
        );
        setRefusal(
          gapsOfRefusal(list, { patientId: encounter.patient_id, userId: session?.user_id ?? 0, clientId, encounterId: encounter.id }),
        );
      } else form.setFields(fieldErrors(error) as never);
    } finally {
      setClosing(false);
      refresh();
    }
  };

  const startAmending = () => {
    setRefusal(null);
    setAmending(true);
  };

  const cancelAmending = () => {
    const stored = valuesOf(t);
    form.resetFields();
    form.setFieldsValue(stored);
    setValues(stored);
    amendForm.resetFields();
    setRefusal(null);
    setAmending(false);
  };

  const onAmend = async () => {
    setClosing(true);
    try {
      await form.validateFields();
      const { reason } = await amendForm.validateFields();
      await mutateAsync({
        method: 'post',
        path: '/encounters/{id}/amendments',
        params: { id: encounter.id },
        values: { reason: reason ?? '', changes: teleconsultationBody(form.getFieldsValue(true)) },
        successNotification: success('Nota aclaratoria registrada: el RDA tiene una versión nueva que reemplaza a la anterior.'),
        errorNotification: (error) =>
          error?.code === 'rda_incomplete' ? false : serverError('No fue posible registrar la nota aclaratoria')(error),
      });
      setRefusal(null);
      amendForm.resetFields();
      setAmending(false);
    } catch (error) {
      if (isHttpError(error) && error.code === 'rda_incomplete') {
        const list = Object.entries(error.errors ?? {}).flatMap(([field, messages]) =>
          (Array.isArray(messages) ? messages : [messages]).map((message) => ({ field, message: String(message) })),
        );
        const userId = encounter.responsible ?? session?.user_id ?? 0;
        setRefusal(gapsOfRefusal(list, { patientId: encounter.patient_id, userId, clientId, encounterId: encounter.id }));
      } else {
        const errors = fieldErrors(error);
        amendForm.setFields(errors.filter((e) => e.name === 'reason') as never);
        form.setFields(
          errors.filter((e) => e.name.startsWith('changes.')).map((e) => ({ ...e, name: e.name.slice('changes.'.length) })) as never,
        );
      }
    } finally {
      setClosing(false);
      refresh();
    }
  };

  const amendCard = done && amending && (
    <Card title="Nota aclaratoria" className="rda-gaps-card" size="small">
      <Typography.Paragraph type="secondary">
        Corrija los datos de la teleconsulta en el formulario y escriba el motivo. Se escribirá una versión nueva de su RDA que reemplaza a
        la anterior; la anterior se conserva.
      </Typography.Paragraph>
      <Form form={amendForm} name="amendment" layout="vertical">
        <Form.Item
          name="reason"
          label="Motivo de la aclaración"
          required
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const checked = correctionReasonOf(value);
                return 'problem' in checked ? Promise.reject(new Error(checked.problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={1000} showCount />
        </Form.Item>
      </Form>
      {refusal && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          message="No se registró la nota aclaratoria: a su RDA le falta información."
          description="Corrija lo que sigue y vuelva a enviarla."
        />
      )}
      {gaps.length > 0 && <GapsList gaps={gaps} onField={focusField} />}
      <Space wrap style={{ marginTop: 12 }}>
        <Button onClick={cancelAmending} disabled={closing}>
          Cancelar
        </Button>
        <Tooltip title={complete ? undefined : 'Complete lo obligatorio que le falta al RDA.'}>
          <Button type="primary" icon={<SendOutlined />} onClick={onAmend} loading={closing} disabled={!complete}>
            Registrar nota aclaratoria
          </Button>
        </Tooltip>
      </Space>
    </Card>
  );

  const closeReason = !access.allowed
    ? access.reason
    : gapsState.phase !== 'ready' && gapsState.phase !== 'empty'
      ? 'Espere a que se revise lo que le falta al RDA.'
      : !complete
        ? 'Complete lo obligatorio que le falta al RDA para cerrar.'
        : undefined;

  const gapsCard = editable && !done && (
    <Card title="Lo que le falta al RDA" className="rda-gaps-card" size="small">
      <ReadFailedAlert status={gapsState} />
      {gapsState.phase === 'loading' ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : gapsState.phase === 'failed' ? null : gaps.length === 0 ? (
        <Alert type="success" showIcon message="El RDA está completo: puede cerrar la teleconsulta." />
      ) : (
        <>
          {refusal && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 8 }}
              message="No se cerró la teleconsulta: a su RDA le falta información."
              description="Corrija lo que sigue y vuelva a cerrar."
            />
          )}
          {!refusal && (
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {complete
                ? 'Puede cerrar; lo recomendado completa el RDA.'
                : 'Lo obligatorio impide cerrar; lo recomendado no. Los datos de la institución, del profesional y del paciente se corrigen en su pantalla.'}
            </Typography.Paragraph>
          )}
          <GapsList gaps={gaps} onField={focusField} onLeave={(to) => void leaveTo(to)} />
        </>
      )}
      <Space wrap style={{ marginTop: 12 }}>
        <Button icon={<SaveOutlined />} onClick={onSave} loading={mutation.isPending && !closing}>
          Guardar borrador
        </Button>
        <Tooltip title={closeReason}>
          <Button type="primary" icon={<CheckCircleOutlined />} onClick={onClose} loading={closing} disabled={!!closeReason}>
            Cerrar teleconsulta
          </Button>
        </Tooltip>
      </Space>
      {closeReason && access.allowed && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {closeReason}
        </Typography.Paragraph>
      )}
    </Card>
  );

  const half = { xs: 24, md: 12 };
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={editable ? 16 : 24}>
        <Card>
          {done && (
            <Space direction="vertical" style={{ marginBottom: 16, width: '100%' }}>
              <Typography.Text type="secondary">
                {amending
                  ? 'Nota aclaratoria: corrija los datos y escriba el motivo.'
                  : 'La teleconsulta fue cerrada. Para corregirla, escriba una nota aclaratoria.'}
              </Typography.Text>
              {t.rda_id ? <RdaHistory rdaId={t.rda_id} /> : <Typography.Text type="secondary">RDA: aún no registrado</Typography.Text>}
              {!amending && (
                <Space wrap>
                  <Tooltip title={amendAccess.allowed ? undefined : amendAccess.reason}>
                    <Button icon={<EditOutlined />} onClick={startAmending} disabled={!amendAccess.allowed}>
                      Nota aclaratoria
                    </Button>
                  </Tooltip>
                  {!amendAccess.allowed && <Typography.Text type="secondary">{amendAccess.reason}</Typography.Text>}
                </Space>
              )}
            </Space>
          )}
          {!done && !access.allowed && <Alert type="info" showIcon message={access.reason} style={{ marginBottom: 16 }} />}
          {editable && !done && requiredCount > 0 && (
            // Below the form on a phone, the list would go unseen: said at the top, with the way to it.
            <Alert
              className="rda-gaps-summary"
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              message={`Al RDA le ${requiredCount === 1 ? 'falta 1 dato obligatorio' : `faltan ${requiredCount} datos obligatorios`} para cerrar.`}
              action={
                <Button size="small" onClick={() => document.querySelector('.rda-gaps-card')?.scrollIntoView({ behavior: 'smooth' })}>
                  Ver lo que falta
                </Button>
              }
            />
          )}
          <ReadStateView status={formState} loading={<Skeleton active paragraph={{ rows: 12 }} />}>
            <Form
              form={form}
              name={FORM_NAME}
              className="teleconsultation-form"
              layout="vertical"
              initialValues={initial}
              disabled={!editable}
              onValuesChange={() => {
                setValues(form.getFieldsValue(true));
                setRefusal(null);
              }}
            >
              <Form.Item name="reason" label="Motivo de la consulta">
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} showCount />
              </Form.Item>
              <Form.Item name="findings" label="Hallazgos">
                <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={4000} showCount />
              </Form.Item>
              <Form.Item
                name="reading_ids"
                label="Lecturas revisadas"
                extra={editable ? `Elija entre las ${READINGS_SHOWN} lecturas más recientes del paciente.` : undefined}
              >
                <Select
                  mode="multiple"
                  allowClear
                  placeholder="Seleccione las lecturas que revisó"
                  options={readingOptions}
                  optionFilterProp="label"
                  notFoundContent="El paciente no tiene lecturas registradas"
                />
              </Form.Item>

              <Divider orientation="left">Diagnósticos (CIE-10)</Divider>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="main_code" label="Diagnóstico principal">
                    <Icd10Select known={knownDiagnoses} placeholder="Escriba un código o un nombre" disabled={!editable} />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="main_type" label="Tipo de diagnóstico">
                    <Select allowClear placeholder="Seleccione" options={lists.diagnosisTypes.options} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                name="related"
                label={`Diagnósticos relacionados (hasta ${MAX_RELATED})`}
                extra={values.main_code ? undefined : 'Elija primero el diagnóstico principal.'}
              >
                <Icd10Select
                  mode="multiple"
                  maxCount={MAX_RELATED}
                  known={knownDiagnoses}
                  placeholder="Escriba un código o un nombre"
                  disabled={!editable || !values.main_code}
                />
              </Form.Item>

              <Divider orientation="left">Factores de riesgo</Divider>
              <div data-field="risk_factors">
                <Form.List name="risk_factors">
                  {(fields, { add, remove }) => (
                    <>
                      {fields.map((field, i) => (
                        // On a phone the code takes its own line: beside it, the description had room for a few letters.
                        <Row gutter={8} key={field.key} align="top">
                          <Col xs={{ flex: '100%' }} sm={{ flex: '180px' }}>
                            <Form.Item name={[field.name, 'code']} label={i === 0 ? 'Factor' : undefined} aria-label="Factor de riesgo">
                              <Select placeholder="Seleccione" options={lists.risks.options} aria-label={`Factor de riesgo ${i + 1}`} />
                            </Form.Item>
                          </Col>
                          <Col flex="1 1 160px">
                            <Form.Item
                              name={[field.name, 'text']}
                              label={i === 0 ? 'Descripción' : undefined}
                              rules={[{ max: 200, message: 'Describa el factor de riesgo en máximo 200 caracteres' }]}
                            >
                              {/* One line that wraps: on a phone the description is read whole, not cut at the field's end. */}
                              <Input.TextArea
                                autoSize={{ minRows: 1, maxRows: 4 }}
                                maxLength={200}
                                onPressEnter={(event) => event.preventDefault()}
                                aria-label={`Descripción del factor de riesgo ${i + 1}`}
                              />
                            </Form.Item>
                          </Col>
                          {editable && (
                            <Col flex="none" style={{ paddingTop: i === 0 ? 30 : 0 }}>
                              <Button
                                type="text"
                                danger
                                icon={<DeleteOutlined />}
                                aria-label={`Quitar el factor de riesgo ${i + 1}`}
                                onClick={() => remove(field.name)}
                              />
                            </Col>
                          )}
                        </Row>
                      ))}
                      {editable && (
                        <Space wrap style={{ marginBottom: 16 }}>
                          <Button icon={<PlusOutlined />} onClick={() => add({ code: undefined, text: '' })}>
                            Agregar factor de riesgo
                          </Button>
                          <Button
                            onClick={() => {
                              form.setFieldValue('risk_factors', [{ ...NO_RISK_FACTORS }]);
                              setValues(form.getFieldsValue(true));
                            }}
                          >
                            {NO_RISK_FACTORS.text}
                          </Button>
                        </Space>
                      )}
                    </>
                  )}
                </Form.List>
              </div>

              {showMedication && (
                <Form.Item
                  name="medication_note"
                  label="Medicación actual"
                  extra={editable ? 'El paciente no tiene órdenes de medicamento: escriba lo que toma o «Sin medicación».' : undefined}
                >
                  <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={400} />
                </Form.Item>
              )}

              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="sick_leave_scope" label="Incapacidad">
                    <RadioGroup
                      optionType="button"
                      options={[{ value: NO_SICK_LEAVE_CHOICE, label: 'Sin incapacidad' }, ...lists.scopes.options]}
                    />
                  </Form.Item>
                </Col>
                {values.sick_leave_scope && values.sick_leave_scope !== NO_SICK_LEAVE_CHOICE && (
                  <Col {...half}>
                    <Form.Item name="sick_leave_days" label="Días de incapacidad">
                      <InputNumber min={0} max={540} precision={0} style={{ width: 140 }} />
                    </Form.Item>
                  </Col>
                )}
              </Row>

              <Form.Item name="plan" label="Plan de manejo">
                <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={4000} showCount />
              </Form.Item>

              <Divider orientation="left">Datos de la atención</Divider>
              <Row gutter={16}>
                <Col {...half}>
                  <Form.Item name="cups_code" label="Consulta (CUPS)">
                    <Select
                      showSearch
                      allowClear
                      placeholder="Busque por código o nombre"
                      options={lists.cups.options}
                      filterOption={filterByLabel}
                    />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="reps_service" label="Servicio (REPS)">
                    <Select
                      showSearch
                      allowClear
                      placeholder="Busque por código o nombre"
                      options={lists.reps.options}
                      filterOption={filterByLabel}
                    />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="site_id" label="Sede">
                    <Select
                      allowClear
                      placeholder="Seleccione la sede"
                      options={sites}
                      notFoundContent="La institución no tiene sedes registradas"
                    />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="modality" label="Modalidad">
                    <Select options={lists.modalities.options} />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="environment" label="Entorno de atención">
                    <Select options={lists.environments.options} />
                  </Form.Item>
                </Col>
                <Col {...half}>
                  <Form.Item name="external_cause" label="Causa externa">
                    <Select showSearch options={lists.causes.options} filterOption={filterByLabel} />
                  </Form.Item>
                </Col>
              </Row>
            </Form>
          </ReadStateView>
        </Card>
      </Col>
      {editable && (
        <Col xs={24} xl={8}>
          <div className="rda-gaps-side">{done ? amendCard : gapsCard}</div>
        </Col>
      )}
    </Row>
  );
}
