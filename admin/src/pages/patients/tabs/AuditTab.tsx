import { AuditTable } from '../../../components/AuditTable';
import type { PatientTabProps } from '../types';
import '../../../components/audit.css';
import './record-tabs.css';
import { SectionTitle } from '../../../components/SectionTitle';

/** Tab 'Auditoría' of the patient page (issue 8): who changed this patient's record, alerts and orders, and when. Administrators only. */
export default function AuditTab({ patient, active }: PatientTabProps) {
  return (
    <div className="record-tab">
      <div className="record-tab-head">
        <SectionTitle>Auditoría</SectionTitle>
      </div>
      <AuditTable path={`/patients/${patient.id}/audit_events`} query={{}} active={active} />
    </div>
  );
}
