import { Form, Input, Typography } from 'antd';
import { RadioGroup, Select } from '../../crud/form-controls';
import type { Schemas } from '../../contract';
import { validateElementValue } from '@vigia/contract/rules/encounters';
import { useApiQuery } from '../../providers/calls';
import { loadFailed } from '../../providers/notices';

type Observation = Schemas['EncounterObservation'];

export const elementField = (id: number) => `element_${id}`;

/** Generic encounter form (03 §2): one field per clinical element, typed by its kind. */
export function GenericForm({
  encounterId,
  observations,
  readOnly,
}: {
  encounterId: number;
  observations: Observation[];
  readOnly: boolean;
}) {
  const { query } = useApiQuery('/encounters/{id}/get_element', {
    params: { id: encounterId },
    errorNotification: loadFailed,
  });
  const elements = query.data?.data ?? [];
  const byElement = new Map(observations.map((o) => [o.clinical_element, o]));
  return (
    <>
      {elements.map((e) => {
        const logs = byElement.get(e.id)?.logs_obs ?? [];
        const label = e.unity ? `${e.name} (${e.unity})` : e.name;
        const input = (() => {
          switch (e.type) {
            case 'select':
              return (
                <Select disabled={readOnly} placeholder="Seleccione" allowClear options={e.options.map((o) => ({ value: o, label: o }))} />
              );
            case 'boolean':
              return (
                <RadioGroup
                  disabled={readOnly}
                  optionType="button"
                  options={[
                    { value: 'true', label: 'Sí' },
                    { value: 'false', label: 'No' },
                  ]}
                />
              );
            case 'textolargo':
              return <Input.TextArea disabled={readOnly} autoSize={{ minRows: 3, maxRows: 8 }} maxLength={600} showCount />;
            case 'textocorto':
              return <Input disabled={readOnly} maxLength={200} />;
            default:
              return (
                <Input disabled={readOnly} inputMode="decimal" maxLength={5} style={{ maxWidth: 160 }} suffix={e.unity ?? undefined} />
              );
          }
        })();
        return (
          <Form.Item
            key={e.id}
            name={elementField(e.id)}
            label={label}
            required={e.required}
            rules={[
              {
                validator: async (_r, v) => {
                  const m = validateElementValue(e, v as string);
                  if (m) throw new Error(m);
                },
              },
            ]}
            extra={
              logs.length ? (
                <Typography.Text type="secondary">
                  Cambios: {logs.map((l) => `${l.before} → ${l.after} (${l.datef})`).join('; ')}
                </Typography.Text>
              ) : undefined
            }
          >
            {input}
          </Form.Item>
        );
      })}
    </>
  );
}
