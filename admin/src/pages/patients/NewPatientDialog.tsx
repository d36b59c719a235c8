import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Form, Modal, Space, Tooltip } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { readSession } from '../../session';
import { roleAccess } from '../../providers/access';
import { useApiMutation, type BodyOf } from '../../providers/calls';
import { serverError } from '../../providers/notices';
import { fieldErrors } from '../../providers/errors';
import { PatientFormFields, usePatientFormState } from './PatientFormFields';
import { IDENTITY_FIELDS, NEW_PATIENT_FIELDS, toPatientBody, yesterday, type PatientFormValues } from './patient-form';

/** 01 §2: id type 1, the user's country and prefix, birth date yesterday. */
function defaults(): PatientFormValues {
  const user = readSession();
  return { id_type: 1, country_id: user?.country_id, prefix: user?.prefix, birth_date: yesterday(new Date()) };
}

/**
 * 'Nuevo paciente' (01 §2): first the document is checked; a known patient opens at once, an
 * unknown one reveals the blank form.
 */
export default function NewPatientDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<PatientFormValues>();
  const [step, setStep] = useState<'identity' | 'form'>('identity');
  const { mutate, mutation } = useApiMutation();
  const busy = mutation.isPending;
  const fields = step === 'identity' ? IDENTITY_FIELDS : NEW_PATIENT_FIELDS;
  const state = usePatientFormState(form, fields);
  // The dialog is the creation flow: the server's rule for POST /patients (D13, P1) gates every step.
  const access = roleAccess('patients.create');
  const mayCreate = access.allowed;

  // The dialog is a route (/patients/new): opening the patient replaces it in the history.
  const goTo = (id: number) => navigate(`/patients/${id}`, { replace: true });

  const validate = () =>
    mutate(
      {
        method: 'post',
        path: '/patients/validate',
        // The form's rules (PATIENT_FIELD_RULES) hold the required fields before a step can be sent.
        values: toPatientBody(state.values, ['id_type', 'nid']) as BodyOf<'/patients/validate', 'post'>,
        successNotification: (res) => ({ type: 'success', message: res?.data.message ?? '' }),
        // 404: no such patient, the blank form opens instead.
        errorNotification: (e) => (e?.statusCode === 404 ? false : serverError('No fue posible validar el paciente')(e)),
      },
      {
        onSuccess: ({ data }) => goTo(data.id),
        onError: (e) => e.statusCode === 404 && setStep('form'),
      },
    );

  const save = () =>
    mutate(
      {
        method: 'post',
        path: '/patients',
        values: toPatientBody(state.values, NEW_PATIENT_FIELDS) as BodyOf<'/patients', 'post'>,
        successNotification: (res) => ({
          type: 'success',
          message:
            res?.data.status === 2 ? 'Paciente creado. Complete los datos de contacto para activarlo.' : 'Paciente creado correctamente',
        }),
        errorNotification: serverError('No fue posible crear el paciente'),
      },
      {
        onSuccess: ({ data }) => goTo(data.id),
        // The server's messages also show under the fields they name.
        onError: (e) => form.setFields(fieldErrors<PatientFormValues>(e, NEW_PATIENT_FIELDS)),
      },
    );

  const footer =
    step === 'identity' ? (
      <Space wrap>
        <Button onClick={onClose}>Cancelar</Button>
        <Tooltip title={access.reason}>
          <Button type="primary" icon={<SearchOutlined />} loading={busy} disabled={!state.valid || !mayCreate} onClick={validate}>
            Validar paciente
          </Button>
        </Tooltip>
      </Space>
    ) : (
      <Space wrap>
        <Button onClick={onClose}>Cancelar</Button>
        <Tooltip title={access.reason}>
          <Button type="primary" loading={busy} disabled={!state.valid || !mayCreate} onClick={save}>
            Guardar
          </Button>
        </Tooltip>
      </Space>
    );

  return (
    <Modal open={open} title="Nuevo paciente" onCancel={onClose} footer={footer} width={720} destroyOnHidden maskClosable={false}>
      <Form
        form={form}
        layout="vertical"
        initialValues={defaults()}
        requiredMark
        disabled={!mayCreate}
        onFinish={() => mayCreate && (step === 'identity' ? validate() : save())}
      >
        {!mayCreate ? (
          <Alert
            type="warning"
            showIcon
            className="patients-dialog-hint"
            message="No puede registrar pacientes"
            description={access.reason}
          />
        ) : step === 'identity' ? (
          <Alert
            type="info"
            showIcon
            className="patients-dialog-hint"
            message="Primero verifique el documento"
            description="Si el paciente ya está registrado lo abriremos; si no, podrá completar sus datos."
          />
        ) : (
          <Alert
            type="success"
            showIcon
            className="patients-dialog-hint"
            message="No existe un paciente con ese documento. Puede registrarlo."
            action={
              <Button size="small" type="link" onClick={() => setStep('identity')}>
                Cambiar documento
              </Button>
            }
          />
        )}
        <PatientFormFields form={form} fields={fields} state={state} lockedIdentity={step === 'form' || !mayCreate} />
      </Form>
    </Modal>
  );
}
