import { readSession } from '../../../session';
import type { PatientTabProps } from '../types';
import { CaregiversCard } from './settings/CaregiversCard';
import { DemographicsCard } from './settings/DemographicsCard';
import { DeviceCard } from './settings/DeviceCard';
import { ResidentsCard } from './settings/ResidentsCard';
import './record-tabs.css';

/** Tab 'Ajustes' of the patient page (01 §2): demographics, device, caregivers, residents system; one component per card. */
export default function SettingsTab({ patient, active, patientRead }: PatientTabProps) {
  const residents = !!readSession()?.residents_enabled;
  return (
    <div className="settings-grid">
      <DemographicsCard patient={patient} />
      <DeviceCard patient={patient} />
      <CaregiversCard patient={patient} active={active} />
      {residents && <ResidentsCard patient={patient} read={patientRead} />}
    </div>
  );
}
