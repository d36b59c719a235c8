import { PromptsPanel } from '../../../components/PromptsPanel';
import { recordWriteState } from '../../../components/record-access';
import type { Patient, PatientTabProps } from '../types';

/** The patient's AI instructions with their history; `compact` hides creation and actions (01 §2). */
function PatientPrompts({ patient, active, compact }: { patient: Patient; active: boolean; compact?: boolean }) {
  const { canWrite, reason } = recordWriteState(patient, 'clinical.write');
  return (
    <PromptsPanel
      owner={{ kind: 'patient', id: patient.id }}
      heading="Instrucciones para Glady IA de este paciente"
      titles={{ create: 'Nueva instrucción de paciente', edit: 'Editar instrucción de paciente' }}
      canWrite={canWrite}
      disabledReason={reason}
      compact={compact}
      active={active}
    />
  );
}

/** Tab 'Instrucciones IA' of the patient page. */
export default function PromptsTab({ patient, active }: PatientTabProps) {
  return <PatientPrompts patient={patient} active={active} />;
}
