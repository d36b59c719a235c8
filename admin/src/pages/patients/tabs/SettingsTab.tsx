import { useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Result,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { DisconnectOutlined, EditOutlined, SearchOutlined, UserAddOutlined } from '@ant-design/icons';
import type { Schemas } from '../../../contract';
import { readSession } from '../../../session';
import { notify } from '../../../providers/notification';
import { CAREGIVER_RELATIONSHIPS, canSetMultipatientCard } from '@vigia/contract/rules/record';
import { normaliseName, validateEmail, validateName, validateNid, validatePhone, MESSAGES } from '@vigia/contract/rules/validation';
import { deleteJson, errorMessage, getJson, postJson, putJson } from '../../prompts/record-api';
import { DECEASED_REASON } from '../../prompts/record-access';
import { FORBIDDEN_REASON } from '../../../providers/access';
import type { Patient, PatientTabProps } from '../types';
import './record-tabs.css';

type Caregiver = Schemas['Caregiver'];
type Resident = Schemas['Resident'];
type Listing = Record<string, string>;
type IdType = Schemas['IdTypeFull'];

const INCOMPLETE = <Tag color="red">Dato Incompleto</Tag>;

function useListing(name: string, countryId?: number): Listing {
  const [data, setData] = useState<Listing>({});
  useEffect(() => {
    getJson<{ data: Listing }>(`/listings/${name}`, countryId ? { country_id: countryId } : {})
      .then((r) => setData(r.data))
      .catch((e) => console.error('[vigia] listado', name, e));
  }, [name, countryId]);
  return data;
}
const options = (l: Listing) => Object.entries(l).map(([value, label]) => ({ value: Number(value), label }));

/** Whether this patient's profile may change (01 §6 `edit`), and why not. */
function editState(patient: Patient) {
  if (patient.status === 3) return { canEdit: false, reason: DECEASED_REASON };
  return patient.permissions.edit ? { canEdit: true, reason: undefined } : { canEdit: false, reason: FORBIDDEN_REASON };
}

async function savePatient(patient: Patient, body: Record<string, unknown>, reload: () => void): Promise<boolean> {
  try {
    const res = await putJson<{ notification?: { message: string } }>(`/patients/${patient.id}`, body);
    notify.success(res.notification?.message ?? 'Paciente actualizado correctamente');
    reload();
    return true;
  } catch (error) {
    notify.error(errorMessage(error, 'No fue posible guardar los cambios'));
    return false;
  }
}

function DemographicsCard({ patient, reload }: { patient: Patient; reload: () => void }) {
  const occupations = useListing('occupations');
  const scholarships = useListing('scholarships');
  const civil = useListing('civil_statuses');
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm();
  const { canEdit, reason } = editState(patient);
  const save = async () => {
    const v = form.getFieldsValue();
    if (
      await savePatient(
        patient,
        { occupation: v.occupation ?? null, scholarship: v.scholarship ?? null, civil_status: v.civil_status ?? null },
        reload,
      )
    )
      setOpen(false);
  };
  return (
    <Card
      size="small"
      title="Datos sociodemográficos"
      extra={
        <Tooltip title={canEdit ? 'Editar' : reason}>
          <Button
            type="text"
            aria-label="Editar datos sociodemográficos"
            icon={<EditOutlined />}
            disabled={!canEdit}
            onClick={() => {
              form.setFieldsValue(patient);
              setOpen(true);
            }}
          />
        </Tooltip>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Ocupación">{patient.occupation_name ?? INCOMPLETE}</Descriptions.Item>
        <Descriptions.Item label="Escolaridad">{patient.scholarship_name ?? INCOMPLETE}</Descriptions.Item>
        <Descriptions.Item label="Estado Civil">{patient.civil_status_name ?? INCOMPLETE}</Descriptions.Item>
      </Descriptions>
      <Modal
        open={open}
        title="Datos sociodemográficos"
        onCancel={() => setOpen(false)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item name="occupation" label="Ocupación">
            <Select allowClear showSearch optionFilterProp="label" options={options(occupations)} />
          </Form.Item>
          <Form.Item name="scholarship" label="Escolaridad">
            <Select allowClear options={options(scholarships)} />
          </Form.Item>
          <Form.Item name="civil_status" label="Estado Civil">
            <Select allowClear options={options(civil)} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

function DeviceCard({ patient, reload }: { patient: Patient; reload: () => void }) {
  const multipatientClient = !!readSession()?.client_with_multipatient_glady;
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<'card_id' | 'multipatient_card_id'>('card_id');
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const { canEdit, reason } = editState(patient);
  const multiAllowed = canSetMultipatientCard(multipatientClient, patient);
  const error = value.trim() ? null : MESSAGES.required;
  const start = () => {
    const k = patient.multipatient_card_id && multiAllowed ? 'multipatient_card_id' : 'card_id';
    setKind(k);
    setValue(patient[k] ?? '');
    setTouched(false);
    setOpen(true);
  };
  const save = async () => {
    if (error) return setTouched(true);
    const body = kind === 'card_id' ? { card_id: value.trim() } : { multipatient_card_id: value.trim() };
    if (await savePatient(patient, body, reload)) setOpen(false);
  };
  return (
    <Card
      size="small"
      title="Dispositivo"
      extra={
        <Tooltip title={canEdit ? 'Editar' : reason}>
          <Button type="text" aria-label="Editar dispositivo" icon={<EditOutlined />} disabled={!canEdit} onClick={start} />
        </Tooltip>
      }
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Gateway (tarjeta)">
          {patient.card_id ?? <Typography.Text type="secondary">Sin dispositivo</Typography.Text>}
        </Descriptions.Item>
        {multipatientClient && (
          <Descriptions.Item label="Tarjeta multipaciente">
            {patient.multipatient_card_id ?? <Typography.Text type="secondary">Sin tarjeta</Typography.Text>}
          </Descriptions.Item>
        )}
      </Descriptions>
      <Modal
        open={open}
        title="Tarjeta del dispositivo"
        onCancel={() => setOpen(false)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        okButtonProps={{ disabled: !!error }}
        destroyOnHidden
      >
        {multipatientClient && (
          <Radio.Group
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              setValue(patient[e.target.value as typeof kind] ?? '');
            }}
            style={{ marginBottom: 12 }}
          >
            <Radio value="card_id">Gateway del paciente</Radio>
            <Radio value="multipatient_card_id" disabled={!multiAllowed}>
              Tarjeta multipaciente
            </Radio>
          </Radio.Group>
        )}
        {multipatientClient && !multiAllowed && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message="La tarjeta multipaciente solo se puede asignar a un paciente sin gateway."
          />
        )}
        <Form layout="vertical">
          <Form.Item
            label="Número de tarjeta"
            htmlFor="device-card"
            validateStatus={touched && error ? 'error' : undefined}
            help={touched && error ? error : undefined}
          >
            <Input
              id="device-card"
              value={value}
              maxLength={64}
              onChange={(e) => {
                setValue(e.target.value);
                setTouched(true);
              }}
            />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

interface CaregiverForm {
  country_id: number;
  id_type: number;
  nid: string;
  first_name: string;
  last_name: string;
  prefix: string;
  cellphone: string;
  email?: string;
  relationship?: string;
  notification: boolean;
}

function CaregiversCard({ patient, active }: { patient: Patient; active: boolean }) {
  const session = readSession();
  const [list, setList] = useState<Caregiver[]>([]);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<Caregiver | 'new' | null>(null);
  const [hasErrors, setHasErrors] = useState(false);
  const [form] = Form.useForm<CaregiverForm>();
  const countryId = Form.useWatch('country_id', form);
  const idTypeId = Form.useWatch('id_type', form);
  const [idTypes, setIdTypes] = useState<IdType[]>([]);
  const countries = useListing('countries');
  const { canEdit, reason } = editState(patient);
  const path = `/patients/${patient.id}/caregivers`;

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setList(await getJson<Caregiver[]>(path));
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible cargar los cuidadores'));
    } finally {
      setLoading(false);
    }
  }, [path]);
  useEffect(() => {
    if (active) void load();
  }, [active, load]);
  useEffect(() => {
    if (!countryId) return;
    getJson<{ data: IdType[] }>('/listings/id_types_full', { country_id: countryId })
      .then((r) => setIdTypes(r.data))
      .catch(() => setIdTypes([]));
  }, [countryId]);
  // 01 §5: the id-number check reloads when the country or the id type changes.
  useEffect(() => {
    if (editing && form.getFieldValue('nid')) void form.validateFields(['nid']).catch(() => undefined);
  }, [idTypeId, idTypes, editing, form]);

  const open = (c: Caregiver | 'new') => {
    form.resetFields();
    setHasErrors(false);
    form.setFieldsValue(
      c === 'new'
        ? { country_id: session?.country_id, prefix: session?.prefix, id_type: 1, notification: true }
        : {
            ...c,
            email: c.email ?? undefined,
            relationship: c.relationship ?? undefined,
            prefix: c.prefix ?? undefined,
            cellphone: c.cellphone ?? undefined,
          },
    );
    setEditing(c);
  };

  const save = async () => {
    const v = await form.validateFields();
    const body = {
      ...v,
      nid: v.nid.trim(),
      first_name: normaliseName(v.first_name),
      last_name: normaliseName(v.last_name),
      relationship: v.relationship ? normaliseName(v.relationship) : null,
      email: v.email?.trim() ? v.email.trim() : null,
    };
    try {
      const res =
        editing === 'new'
          ? await postJson<Schemas['CaregiverSaved']>(path, body)
          : await putJson<Schemas['CaregiverSaved']>(`${path}/${(editing as Caregiver).id}`, body);
      notify.success(res.notification_message.message);
      await load();
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible guardar el cuidador'));
    } finally {
      // 01 §8: a failed caregiver save shows the server notification and the dialog closes.
      setEditing(null);
    }
  };

  const unlink = async (c: Caregiver) => {
    try {
      await deleteJson(`${path}/${c.id}`);
      notify.success('Cuidador desvinculado del paciente');
      await load();
    } catch (error) {
      notify.error(errorMessage(error, 'No fue posible desvincular el cuidador'));
    }
  };

  const regex = idTypes.find((t) => t.id === idTypeId)?.validation_regex;
  const check = (fn: (v: string) => string | null) => ({
    validator: (_: unknown, v: string) => {
      const m = fn(v);
      return m ? Promise.reject(new Error(m)) : Promise.resolve();
    },
  });

  return (
    <Card
      size="small"
      title="Cuidadores"
      className="settings-wide"
      extra={
        <Tooltip title={canEdit ? undefined : reason}>
          <Button size="small" icon={<UserAddOutlined />} disabled={!canEdit} onClick={() => open('new')}>
            Agregar cuidador
          </Button>
        </Tooltip>
      }
    >
      <Table<Caregiver>
        size="small"
        rowKey="id"
        loading={loading}
        pagination={false}
        dataSource={list}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin cuidadores registrados" /> }}
        columns={[
          { title: 'Nombre', render: (_, c) => `${c.first_name} ${c.last_name}` },
          { title: 'Parentesco', dataIndex: 'relationship', render: (r: string | null) => r ?? '—' },
          { title: 'Teléfono', render: (_, c) => (c.cellphone ? `${c.prefix ?? ''} ${c.cellphone}` : '—') },
          {
            title: '',
            key: 'actions',
            width: 90,
            render: (_, c) => (
              <Space size={0}>
                <Button type="text" aria-label="Editar cuidador" icon={<EditOutlined />} disabled={!canEdit} onClick={() => open(c)} />
                <Popconfirm
                  title="¿Desvincular este cuidador del paciente?"
                  okText="Desvincular"
                  cancelText="Cancelar"
                  onConfirm={() => unlink(c)}
                  disabled={!canEdit}
                >
                  <Button type="text" aria-label="Desvincular cuidador" icon={<DisconnectOutlined />} disabled={!canEdit} />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? 'Nuevo cuidador' : 'Editar cuidador'}
        onCancel={() => setEditing(null)}
        onOk={save}
        okText="Guardar"
        cancelText="Cancelar"
        okButtonProps={{ disabled: hasErrors }}
        destroyOnHidden
        width={620}
      >
        <Form form={form} layout="vertical" onFieldsChange={() => setHasErrors(form.getFieldsError().some((f) => f.errors.length > 0))}>
          <div className="caregiver-row">
            <Form.Item name="country_id" label="País" rules={[{ required: true, message: MESSAGES.required }]} style={{ flex: 1 }}>
              <Select options={options(countries)} onChange={() => form.setFieldValue('id_type', undefined)} />
            </Form.Item>
            <Form.Item
              name="id_type"
              label="Tipo de documento"
              rules={[{ required: true, message: MESSAGES.required }]}
              style={{ flex: 1 }}
            >
              <Select options={idTypes.map((t) => ({ value: t.id, label: t.name }))} />
            </Form.Item>
          </div>
          <Form.Item name="nid" label="Número de documento" required rules={[check((v) => validateNid(v, regex))]}>
            <Input />
          </Form.Item>
          <div className="caregiver-row">
            <Form.Item
              name="first_name"
              label="Nombres"
              required
              rules={[check((v) => validateName(v))]}
              normalize={(v: string) => v?.toUpperCase()}
              style={{ flex: 1 }}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="last_name"
              label="Apellidos"
              required
              rules={[check((v) => validateName(v))]}
              normalize={(v: string) => v?.toUpperCase()}
              style={{ flex: 1 }}
            >
              <Input />
            </Form.Item>
          </div>
          <div className="caregiver-row caregiver-phone">
            <Form.Item name="prefix" label="Prefijo" rules={[{ required: true, message: MESSAGES.required }]}>
              <Input />
            </Form.Item>
            <Form.Item name="cellphone" label="Celular" required rules={[check((v) => validatePhone(v))]} style={{ flex: 1 }}>
              <Input inputMode="numeric" />
            </Form.Item>
          </div>
          <Form.Item name="email" label="Correo electrónico" rules={[check((v) => validateEmail(v, false))]}>
            <Input type="email" />
          </Form.Item>
          <Form.Item name="relationship" label="Parentesco con el paciente">
            <Select allowClear showSearch options={CAREGIVER_RELATIONSHIPS.map((r) => ({ value: r, label: r }))} />
          </Form.Item>
          <Form.Item name="notification" label="Recibe notificaciones" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

type LookupState =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; resident: Resident }
  | { state: 'nofound' }
  | { state: 'error'; message: string };

function ResidentsCard({ patient, reload }: { patient: Patient; reload: () => void }) {
  const clientId = readSession()?.client_id;
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [lookup, setLookup] = useState<LookupState>({ state: 'idle' });
  const { canEdit, reason } = editState(patient);
  const search = async () => {
    setLookup({ state: 'searching' });
    try {
      setLookup({ state: 'found', resident: await getJson<Resident>(`/clients/${clientId}/residents/${encodeURIComponent(code.trim())}`) });
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      setLookup(
        status === 404
          ? { state: 'nofound' }
          : { state: 'error', message: errorMessage(error, 'No fue posible consultar el sistema de residentes.') },
      );
    }
  };
  const assign = async (resident: Resident) => {
    try {
      await putJson(`/patients/${patient.id}`, { resiplus_data: resident, resiplus_code: resident.code, resiplus_id: String(resident.id) });
      notify.success('Residente asociado al paciente');
      setOpen(false);
      reload();
    } catch (error) {
      console.error('[vigia] asociar residente', error); // 01 §8: logged only
    }
  };
  const unassign = async () => {
    try {
      await putJson(`/patients/${patient.id}`, { resiplus_data: null, resiplus_code: null, resiplus_id: null });
      reload();
    } catch (error) {
      console.error('[vigia] desasociar residente', error);
    }
  };
  const data = patient.resiplus_data;
  return (
    <Card
      size="small"
      title="Sistema de residentes"
      extra={
        <Tooltip title={canEdit ? undefined : reason}>
          <Button
            size="small"
            icon={<SearchOutlined />}
            disabled={!canEdit}
            onClick={() => {
              setCode('');
              setLookup({ state: 'idle' });
              setOpen(true);
            }}
          >
            Buscar residente
          </Button>
        </Tooltip>
      }
    >
      {data ? (
        <>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="Residente">{data.full_name}</Descriptions.Item>
            <Descriptions.Item label="Documento">{`${data.document_id_type ?? ''} ${data.document_id ?? ''}`}</Descriptions.Item>
            <Descriptions.Item label="Código">{patient.resiplus_code}</Descriptions.Item>
          </Descriptions>
          <Popconfirm
            title="¿Desasociar el residente de este paciente?"
            okText="Desasociar"
            cancelText="Cancelar"
            onConfirm={unassign}
            disabled={!canEdit}
          >
            <Button size="small" danger disabled={!canEdit}>
              Desasociar
            </Button>
          </Popconfirm>
        </>
      ) : (
        <Typography.Text type="secondary">El paciente no está asociado a un residente.</Typography.Text>
      )}
      <Modal
        open={open}
        title="Buscar residente por código"
        onCancel={() => setOpen(false)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setOpen(false)}>
            Cancelar
          </Button>,
          <Button
            key="assign"
            type="primary"
            disabled={lookup.state !== 'found'}
            onClick={() => lookup.state === 'found' && assign(lookup.resident)}
          >
            Asociar
          </Button>,
        ]}
      >
        <Form layout="vertical" onFinish={search}>
          <Form.Item label="Código del residente" htmlFor="resident-code" extra="Incluya los ceros a la izquierda (por ejemplo 00010).">
            <Space.Compact block>
              <Input
                id="resident-code"
                value={code}
                inputMode="numeric"
                onChange={(e) => {
                  setCode(e.target.value.replace(/\D/g, ''));
                  setLookup({ state: 'idle' });
                }}
              />
              <Button htmlType="submit" icon={<SearchOutlined />} loading={lookup.state === 'searching'} disabled={!code}>
                Buscar
              </Button>
            </Space.Compact>
          </Form.Item>
        </Form>
        {lookup.state === 'searching' && <Spin />}
        {lookup.state === 'found' && (
          <Descriptions bordered column={1} size="small">
            <Descriptions.Item label="Nombre">{lookup.resident.full_name}</Descriptions.Item>
            <Descriptions.Item label="Documento">{`${lookup.resident.document_id_type} ${lookup.resident.document_id}`}</Descriptions.Item>
            <Descriptions.Item label="Código">{lookup.resident.code}</Descriptions.Item>
          </Descriptions>
        )}
        {lookup.state === 'nofound' && <Result status="warning" title="Residente no encontrado" />}
        {lookup.state === 'error' && <Alert type="error" showIcon message={lookup.message} />}
      </Modal>
    </Card>
  );
}

/** Tab 'Ajustes' of the patient page (01 §2): demographics, device, caregivers, residents system. */
export default function SettingsTab({ patient, reload, active }: PatientTabProps) {
  const residents = !!readSession()?.residents_enabled;
  return (
    <div className="settings-grid">
      <DemographicsCard patient={patient} reload={reload} />
      <DeviceCard patient={patient} reload={reload} />
      <CaregiversCard patient={patient} active={active} />
      {residents && <ResidentsCard patient={patient} reload={reload} />}
    </div>
  );
}
