import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Form, Modal, Space, Typography } from 'antd';
import { RadioGroup } from '../../crud/form-controls';
import type { Schemas } from '../../contract';
import { contractDoc } from '../../crud/contract-doc';
import { enumOptions, objectSchema } from '../../crud/schema-rules';
import { useNotification } from '@refinedev/core';
import { useApiMutation } from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { serverError } from '../../providers/notices';
import { vaccinationBody, VaccinationForm } from '../../components/VaccinationForm';
import type { Patient } from './types';

type Encounter = Schemas['Encounter'];
type Kind = Schemas['EncounterKind'];

/**
 * 'Nueva atención' from the patient page (03 §2 'Encounter screen'): a vaccination is filled and
 * saved here (Realizado, one unit out of the batch) and the encounter opens; a general encounter or a
 * teleconsultation (issue 51) is opened at once and filled on its own screen.
 */
export function NewEncounterDialog({ patient, open, onClose }: { patient: Patient; open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [kind, setKind] = useState<Kind>('vaccination');
  const { mutateAsync, mutation } = useApiMutation();
  const busy = mutation.isPending;
  const { open: notify } = useNotification();
  // A vaccination whose save failed keeps its (pending) encounter: a retry saves that one, never a second.
  const [opened, setOpened] = useState<Encounter | null>(null);
  const kinds = useMemo(() => enumOptions(objectSchema(contractDoc, 'EncounterKind')), []);

  const failed = serverError('No fue posible registrar la atención');
  const create = async (k: Kind) =>
    (
      await mutateAsync({
        method: 'post',
        path: '/patients/{id}/encounters',
        params: { id: patient.id },
        values: { kind: k },
        errorNotification: failed,
      })
    ).data;

  const submit = async () => {
    if (kind === 'vaccination') {
      try {
        await form.validateFields();
      } catch {
        return notify?.({ type: 'error', message: 'Revise los campos marcados en rojo.' });
      }
    }
    let encounter = kind === 'vaccination' ? opened : null;
    try {
      encounter ??= await create(kind);
      if (kind === 'vaccination') {
        setOpened(encounter);
        await mutateAsync({
          method: 'put',
          path: '/encounters/{id}',
          params: { id: encounter.id },
          values: vaccinationBody(form.getFieldsValue(true)),
          successNotification: { type: 'success', message: 'Atención guardada: quedó en estado Realizado.' },
          errorNotification: failed,
        });
      } else {
        notify?.({
          type: 'success',
          message:
            kind === 'teleconsultation'
              ? 'Teleconsulta abierta: registre la consulta y ciérrela.'
              : 'Atención abierta: registre los elementos clínicos y guarde.',
        });
      }
      onClose();
      navigate(`/encounters/${encounter.id}`);
    } catch (error) {
      // The notification is the hook's; the fields the server names show their messages.
      form.setFields(fieldErrors(error));
    }
  };

  return (
    <Modal
      open={open}
      title="Nueva atención"
      onCancel={onClose}
      width={640}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="primary" loading={busy} onClick={submit}>
            {kind === 'vaccination' ? 'Guardar' : kind === 'teleconsultation' ? 'Abrir teleconsulta' : 'Abrir atención'}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        Paciente: <Typography.Text strong>{patient.full_name}</Typography.Text> · {patient.id_type_name} {patient.nid}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark name="new-encounter">
        <Form.Item label="Tipo de atención">
          <RadioGroup
            optionType="button"
            buttonStyle="solid"
            value={kind}
            disabled={!!opened}
            options={kinds.map((k) => ({ value: k.value, label: k.label }))}
            onChange={(e) => setKind(e.target.value as Kind)}
          />
        </Form.Item>
        {kind === 'vaccination' ? (
          <>
            {opened && (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 16 }}
                message="La atención quedó abierta como Pendiente"
                description="Corrija los datos y guarde de nuevo; no se abrirá otra atención."
              />
            )}
            <VaccinationForm readOnly={false} />
          </>
        ) : kind === 'teleconsultation' ? (
          <Typography.Paragraph>
            Se abrirá la teleconsulta con el motivo, los hallazgos, los diagnósticos y las lecturas revisadas; al cerrarla se escribe su RDA
            (Resumen Digital de Atención).
          </Typography.Paragraph>
        ) : (
          <Typography.Paragraph>
            Se abrirá la atención general con los signos vitales y demás elementos clínicos; al guardarla queda en estado Realizado.
          </Typography.Paragraph>
        )}
      </Form>
    </Modal>
  );
}
