import { useState } from 'react';
import { Alert, Button, Checkbox, Form, Input, Modal, Space, Typography } from 'antd';
import { Select } from '../../crud/form-controls';
import { ExclamationCircleFilled } from '@ant-design/icons';
import { validateText } from '@vigia/contract/rules/validation';
import { ColorChip } from '../../crud/ColorChip';
import { useClientTags } from '../../hooks/useClientTags';
import { usePatientUpdate, type PatientUpdated } from './hooks/usePatientUpdate';
import { PatientFormFields, usePatientFormState } from './PatientFormFields';
import { BASIC_FIELDS, CONTACT_FIELDS, toPatientBody, type PatientFormValues } from './patient-form';
import type { Patient } from './types';
import { fieldErrors } from '../../providers/errors';

export type Saved = (updated: PatientUpdated) => void;

function Footer({
  onCancel,
  onSave,
  busy,
  disabled,
  label = 'Guardar',
  danger = false,
}: {
  onCancel: () => void;
  onSave: () => void;
  busy: boolean;
  disabled?: boolean;
  label?: string;
  danger?: boolean;
}) {
  return (
    <Space wrap>
      <Button onClick={onCancel}>Cancelar</Button>
      <Button type="primary" danger={danger} loading={busy} disabled={disabled} onClick={onSave}>
        {label}
      </Button>
    </Space>
  );
}

type DialogProps = { patient: Patient; open: boolean; onClose: () => void; onSaved: Saved };

/** 'Datos básicos' and 'Información de contacto': the same fields as creation, each sending only its own. */
function PatientFieldsDialog({ patient, open, onClose, onSaved, kind }: DialogProps & { kind: 'basic' | 'contact' }) {
  const [form] = Form.useForm<PatientFormValues>();
  const { save, saving: busy } = usePatientUpdate(patient.id);
  const fields = kind === 'basic' ? BASIC_FIELDS : CONTACT_FIELDS;
  const state = usePatientFormState(form, fields);
  const initial: PatientFormValues = Object.fromEntries(fields.map((f) => [f, (patient as Record<string, unknown>)[f] ?? undefined]));
  if (kind === 'basic') initial.disabilities = patient.disabilities ?? [];
  const submit = async () => {
    const body = toPatientBody(state.values, fields);
    // A patient moved to another country must choose a city there (the old one no longer applies).
    if (kind === 'basic' && state.values.country_id !== patient.country_id) body.city_id = null;
    // A 400 names its field: the message shows under it (issue 51).
    if (await save(body, onSaved, {}, (error) => form.setFields(fieldErrors<PatientFormValues>(error, fields)))) onClose();
  };
  const movedCountry = kind === 'basic' && state.values.country_id !== undefined && state.values.country_id !== patient.country_id;
  return (
    <Modal
      open={open}
      title={kind === 'basic' ? 'Editar datos básicos' : 'Editar información de contacto'}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      maskClosable={false}
      footer={<Footer onCancel={onClose} onSave={submit} busy={busy} disabled={!state.valid} />}
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        {kind === 'contact' && patient.status === 2 && (
          <Alert
            type="warning"
            showIcon
            className="patients-dialog-hint"
            message="Con todos los datos de contacto completos el paciente quedará activo."
          />
        )}
        {movedCountry && (
          <Alert
            type="warning"
            showIcon
            className="patients-dialog-hint"
            message="Al cambiar el país se borra la ciudad: indíquela de nuevo en la información de contacto."
          />
        )}
        <PatientFormFields
          form={form}
          fields={fields}
          state={state}
          initialCity={patient.city_id ? { value: patient.city_id, label: patient.city_name ?? '' } : null}
        />
      </Form>
    </Modal>
  );
}

export const EditBasicDialog = (p: DialogProps) => <PatientFieldsDialog {...p} kind="basic" />;
export const EditContactDialog = (p: DialogProps) => <PatientFieldsDialog {...p} kind="contact" />;

/** 'Historia clínica': sends only clinic_history. */
export function ClinicHistoryDialog({ patient, open, onClose, onSaved }: DialogProps) {
  const [text, setText] = useState(patient.clinic_history ?? '');
  const { save, saving: busy } = usePatientUpdate(patient.id);
  const error = text.trim() ? validateText(text, 600) : null;
  return (
    <Modal
      open={open}
      title="Editar resumen de historia clínica"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Footer
          onCancel={onClose}
          busy={busy}
          disabled={!!error}
          onSave={async () => (await save({ clinic_history: text.trim() || null }, onSaved)) && onClose()}
        />
      }
    >
      <Form layout="vertical">
        <Form.Item label="Resumen de historia clínica" validateStatus={error ? 'error' : undefined} help={error ?? undefined}>
          <Input.TextArea
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoSize={{ minRows: 5, maxRows: 12 }}
            maxLength={600}
            showCount
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 'Etiquetas': sends {tag_ids}, the contract's PatientUpdate (01 §7 wrapped it in `patient`, which the API refuses). */
export function TagsDialog({ patient, open, onClose, onSaved }: DialogProps) {
  const tags = useClientTags();
  const [value, setValue] = useState<number[]>(patient.tag_ids);
  const { save, saving: busy } = usePatientUpdate(patient.id);
  return (
    <Modal
      open={open}
      title="Etiquetas del paciente"
      onCancel={onClose}
      destroyOnHidden
      footer={<Footer onCancel={onClose} busy={busy} onSave={async () => (await save({ tag_ids: value }, onSaved)) && onClose()} />}
    >
      <Form layout="vertical">
        <Form.Item label="Etiquetas" extra="Las etiquetas agrupan pacientes y pueden llevar instrucciones para Glady IA.">
          <Select
            mode="multiple"
            value={value}
            onChange={setValue}
            optionFilterProp="label"
            placeholder="Elija etiquetas"
            aria-label="Etiquetas"
            options={tags.map((t) => ({ value: t.id, label: t.name }))}
            tagRender={({ label, value: id, closable, onClose: close }) => {
              const tag = tags.find((t) => t.id === id);
              return (
                <span className="patients-tag-option">
                  <ColorChip color={tag?.color}>
                    {label}
                    {closable && (
                      <button type="button" className="patients-tag-remove" aria-label={`Quitar ${String(label)}`} onClick={close}>
                        ×
                      </button>
                    )}
                  </ColorChip>
                </span>
              );
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 01 §4: inactivating warns what stops; confirm sends status 0, cancel leaves the patient active. */
export function InactivateDialog({ patient, open, onClose, onSaved }: DialogProps) {
  const { save, saving: busy } = usePatientUpdate(patient.id);
  return (
    <Modal
      open={open}
      title={
        <span>
          <ExclamationCircleFilled style={{ color: '#faad14', marginInlineEnd: 8 }} />
          ¿Inactivar al paciente?
        </span>
      }
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Footer
          onCancel={onClose}
          busy={busy}
          label="Inactivar"
          danger
          onSave={async () => (await save({ status: 0 }, onSaved)) && onClose()}
        />
      }
    >
      <Typography.Paragraph>Al inactivar a {patient.full_name}:</Typography.Paragraph>
      <ul>
        <li>Sus órdenes y actividades quedan suspendidas.</li>
        <li>Dejará de recibir recordatorios.</li>
        <li>No podrá enviar mediciones.</li>
      </ul>
      <Typography.Paragraph type="secondary">
        Puede activarlo de nuevo en cualquier momento; las actividades futuras se reanudan.
      </Typography.Paragraph>
    </Modal>
  );
}

/** The editable fields of the record: declaring a death saves the whole record with status 3 (01 §4). */
const WHOLE_RECORD = [
  'id_type',
  'nid',
  'first_name',
  'last_name',
  'country_id',
  'city_id',
  'birth_date',
  'gender',
  'blood_type',
  'rh_factor',
  'eapb_id',
  'regime',
  'time_zone',
  'address',
  'neighborhood',
  'prefix',
  'cellphone',
  'email',
  'clinic_history',
  'tag_ids',
  'card_id',
  'multipatient_card_id',
  'occupation',
  'scholarship',
  'civil_status',
] as const;

export function wholeRecordWithStatus(patient: Patient, status: number): Record<string, unknown> {
  const body: Record<string, unknown> = Object.fromEntries(WHOLE_RECORD.map((f) => [f, patient[f]]));
  // The contract refuses a null where a value is required; those are simply left out.
  for (const f of ['prefix', 'cellphone', 'email'] as const) if (body[f] == null) delete body[f];
  return { ...body, status };
}

/** D9: irreversible. The nurse must tick that she understands before the button enables. */
export function DeceasedDialog({ patient, open, onClose, onSaved }: DialogProps) {
  const { save, saving: busy } = usePatientUpdate(patient.id);
  const [sure, setSure] = useState(false);
  return (
    <Modal
      open={open}
      title="Declarar fallecimiento"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Footer
          onCancel={onClose}
          busy={busy}
          danger
          disabled={!sure}
          label="Declarar fallecimiento"
          onSave={async () => (await save(wholeRecordWithStatus(patient, 3), onSaved)) && onClose()}
        />
      }
    >
      <Alert type="error" showIcon message="Esta acción no se puede deshacer." className="patients-dialog-hint" />
      <Typography.Paragraph>Al registrar el fallecimiento de {patient.full_name}:</Typography.Paragraph>
      <ul>
        <li>Se cancelan todas sus órdenes y actividades pendientes.</li>
        <li>Su ficha queda de solo lectura: no admite más cambios.</li>
        <li>Solo se podrán descargar sus reportes.</li>
      </ul>
      <Checkbox checked={sure} onChange={(e) => setSure(e.target.checked)}>
        Confirmo que el paciente falleció
      </Checkbox>
    </Modal>
  );
}
