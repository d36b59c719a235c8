import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const PatientsListPage = lazy(() => import('./PatientsListPage'));
const PatientPage = lazy(() => import('./PatientPage'));

/** Pacientes: list, the new-patient dialog over it (sidebar 'Nuevo paciente'), and the patient page (issue 3). */
export const patientRoutes: ReactElement[] = [
  <Route key="/patients" path="/patients" element={<PatientsListPage />} />,
  <Route key="/patients/new" path="/patients/new" element={<PatientsListPage newPatient />} />,
  <Route key="/patients/:id" path="/patients/:id" element={<PatientPage />} />,
];
