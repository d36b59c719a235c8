import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Skeleton, Tabs } from 'antd';
import type { Schemas } from '../../contract';
import { readSession } from '../../session';
import type { PatientTabProps } from './types';

type ElementKey = Schemas['ClinicalElementKey'];
type TabDef = { key: string; label: string; element?: ElementKey; Component: LazyExoticComponent<ComponentType<PatientTabProps>> };

/** 01 §2: the tabs of the patient page, each shown only if the client has that element enabled. */
const PATIENT_TABS: TabDef[] = [
  { key: 'signs', label: 'Signos', element: 'signs', Component: lazy(() => import('./tabs/MeasurementsTab')) },
  { key: 'observations', label: 'Anotaciones', element: 'observations', Component: lazy(() => import('./tabs/ObservationsTab')) },
  { key: 'conditions', label: 'Antecedentes', element: 'conditions', Component: lazy(() => import('./tabs/ConditionsTab')) },
  { key: 'variables', label: 'Variables', element: 'variables', Component: lazy(() => import('./tabs/VariablesTab')) },
  { key: 'prompts', label: 'Instrucciones IA', element: 'assistant', Component: lazy(() => import('./tabs/PromptsTab')) },
  { key: 'chat', label: 'Chat', element: 'assistant', Component: lazy(() => import('./tabs/ChatTab')) },
  { key: 'activities', label: 'Actividades', element: 'activities', Component: lazy(() => import('./tabs/ActivitiesTab')) },
  { key: 'alerts', label: 'Alertas', element: 'alerts', Component: lazy(() => import('./tabs/AlertsTab')) },
  { key: 'orders', label: 'Ordenes', element: 'orders', Component: lazy(() => import('./tabs/OrdersTab')) },
  { key: 'settings', label: 'Ajustes', element: 'settings', Component: lazy(() => import('./tabs/SettingsTab')) },
  { key: 'reports', label: 'Reportes', element: 'reports', Component: lazy(() => import('./tabs/ReportsTab')) },
];

/** Issue 8: the patient's audit trail; for administrators only, whatever elements the client has. */
const AUDIT_TAB: TabDef = { key: 'audit', label: 'Auditoría', Component: lazy(() => import('./tabs/AuditTab')) };

export function visibleTabs(elements: ElementKey[] | undefined, role: string | undefined = readSession()?.role_name): TabDef[] {
  // A session from before elements existed shows every tab rather than none.
  const tabs = elements?.length ? PATIENT_TABS.filter((t) => t.element && elements.includes(t.element)) : PATIENT_TABS;
  return role === 'admin' ? [...tabs, AUDIT_TAB] : tabs;
}

/**
 * A tab's file loads the first time it is opened and then stays mounted; `active` tells it when it
 * becomes visible again so it reloads its data (01 §2).
 */
export function PatientTabs({
  tabs,
  activeKey,
  onChange,
  patient,
}: { tabs: TabDef[]; activeKey: string; onChange: (key: string) => void } & Omit<PatientTabProps, 'active'>) {
  const [opened, setOpened] = useState<Set<string>>(() => new Set([activeKey]));
  if (!opened.has(activeKey)) setOpened(new Set(opened).add(activeKey));
  return (
    <Tabs
      className="patient-tabs"
      activeKey={activeKey}
      onChange={onChange}
      items={tabs.map(({ key, label, Component }) => ({
        key,
        label,
        children: opened.has(key) && (
          <Suspense fallback={<Skeleton active />}>
            <Component patient={patient} active={key === activeKey} />
          </Suspense>
        ),
      }))}
    />
  );
}
