import { Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Skeleton, Tabs } from 'antd';
import type { Schemas } from '../../contract';
import { can, isRole } from '@vigia/contract/rules/access';
import { readSession } from '../../session';
import type { PatientTabProps } from './types';
import { MEASUREMENT_CHART, MEASUREMENTS_TAB } from '../../route-modules';
import { lazyLoaded, moduleLoad, type ModuleLoad } from '../../ui/loaded-lazy';

type ElementKey = Schemas['ClinicalElementKey'];
type TabModule = { default: ComponentType<PatientTabProps> };
type TabDef = {
  key: string;
  label: string;
  element?: ElementKey;
  /** The tab's file; `Component` loads it on first render, `preloadTab` before. */
  load: () => Promise<TabModule>;
  Component: LazyExoticComponent<ComponentType<PatientTabProps>>;
};

/** `file`: the tab's import, or its load when route-modules.ts shares it; `also`: what else leaves with it. */
const tab = (
  key: string,
  label: string,
  element: ElementKey | undefined,
  file: ModuleLoad<TabModule> | (() => Promise<TabModule>),
  also?: () => void,
): TabDef => {
  const module = typeof file === 'function' ? moduleLoad(file) : file;
  return {
    key,
    label,
    element,
    load: () => {
      also?.();
      return module.load();
    },
    Component: lazyLoaded(module),
  };
};

/** 01 §2: the tabs of the patient page, each shown only if the client has that element enabled. */
const PATIENT_TABS: TabDef[] = [
  // The charts' chunk (VitalCard loads it too) leaves with the tab's file, not once the tab's own
  // imports have arrived and run: it is the largest the tab waits for (issue 52).
  tab('signs', 'Signos', 'signs', MEASUREMENTS_TAB, () => void MEASUREMENT_CHART.load().catch(() => undefined)),
  tab('observations', 'Anotaciones', 'observations', () => import('./tabs/ObservationsTab')),
  tab('conditions', 'Antecedentes', 'conditions', () => import('./tabs/ConditionsTab')),
  tab('variables', 'Variables', 'variables', () => import('./tabs/VariablesTab')),
  tab('prompts', 'Instrucciones IA', 'assistant', () => import('./tabs/PromptsTab')),
  tab('chat', 'Chat', 'assistant', () => import('./tabs/ChatTab')),
  tab('activities', 'Actividades', 'activities', () => import('./tabs/ActivitiesTab')),
  tab('alerts', 'Alertas', 'alerts', () => import('./tabs/AlertsTab')),
  tab('orders', 'Órdenes', 'orders', () => import('./tabs/OrdersTab')),
  tab('settings', 'Ajustes', 'settings', () => import('./tabs/SettingsTab')),
  tab('reports', 'Reportes', 'reports', () => import('./tabs/ReportsTab')),
];

/** Issue 8: the patient's audit trail; for administrators only, whatever elements the client has. */
const AUDIT_TAB = tab('audit', 'Auditoría', undefined, () => import('./tabs/AuditTab'));

/** Issue 51: the patient's RDA, for the roles listRdas answers (clinical.write), whatever elements the client has. */
const RDA_TAB = tab('rda', 'RDA', undefined, () => import('./tabs/RdaTab'));

export function visibleTabs(elements: ElementKey[] | undefined, role: string | undefined = readSession()?.role_name): TabDef[] {
  // A session from before elements existed shows every tab rather than none.
  const tabs = elements?.length ? PATIENT_TABS.filter((t) => t.element && elements.includes(t.element)) : PATIENT_TABS;
  const rda = isRole(role) && can(role, 'clinical.write') ? [RDA_TAB] : [];
  return role === 'admin' ? [...tabs, ...rda, AUDIT_TAB] : [...tabs, ...rda];
}

/**
 * Starts loading the tab's file (and what it loads at once: the Signos tab starts the charting
 * library) while the record is still being read, instead of after it: on the patient page opened
 * on Signos the tab's file, then the charts' chunk, were each a step of the wait for the charts
 * (issue 52). The tab's own lazy() then finds the module loaded.
 */
export function preloadTab(key: string | undefined): void {
  void [...PATIENT_TABS, AUDIT_TAB]
    .find((t) => t.key === key)
    ?.load()
    .catch(() => undefined);
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
  patientRead,
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
            <Component patient={patient} patientRead={patientRead} active={key === activeKey} />
          </Suspense>
        ),
      }))}
    />
  );
}
