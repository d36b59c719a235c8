import { Alert, Descriptions, Typography } from 'antd';
import type { Schemas } from '../../contract';
import { countOf, isOne } from '@vigia/contract/rules/plural';

/** Body of the alarm rule's delete confirmation (02 §2.10). */
export function AlarmDeleteContent({ alarm }: { alarm: Schemas['Alarm'] }) {
  return (
    <>
      <Typography.Text type="danger" strong>
        Acción irreversible
      </Typography.Text>
      <Typography.Paragraph>¿Está seguro de que quiere eliminar esta alerta? Esta acción no se puede deshacer.</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Nombre">{alarm.name}</Descriptions.Item>
        <Descriptions.Item label="Elemento clínico">{alarm.clinical_element_name}</Descriptions.Item>
        <Descriptions.Item label="Prioridad">{alarm.priority_name}</Descriptions.Item>
        <Descriptions.Item label="Pacientes">{alarm.patients_count}</Descriptions.Item>
        <Descriptions.Item label="Rango">
          {alarm.minimum_condition} - {alarm.maximum_condition} {alarm.clinical_element_unit}
        </Descriptions.Item>
      </Descriptions>
      <Alert
        style={{ marginTop: 12 }}
        type="warning"
        showIcon
        message={
          isOne(alarm.patients_count)
            ? 'Se desasociará 1 paciente de esta alerta. El paciente ya no recibirá notificaciones para este elemento clínico.'
            : `Se desasociarán ${countOf(alarm.patients_count, 'paciente', 'pacientes')} de esta alerta. Los pacientes ya no recibirán notificaciones para este elemento clínico.`
        }
      />
    </>
  );
}
