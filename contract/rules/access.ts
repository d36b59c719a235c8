/**
 * Roles (D13) and the per-patient permissions object, as pure functions. The server enforces
 * exactly what these answer; the UI only mirrors them.
 */
export const ROLES = ['admin', 'medico', 'enfermeria', 'consulta'] as const;
export type Role = (typeof ROLES)[number];

export const PATIENT_STATUS = { inactive: 0, active: 1, incomplete: 2, deceased: 3 } as const;
export const PATIENT_STATUS_NAMES: Record<number, string> = { 0: 'Inactivo', 1: 'Activo', 2: 'Incompleto', 3: 'Fallecido' };

export const USER_STATUS = { active: 0, inactive: 1 } as const;
export const USER_STATUS_NAMES: Record<number, string> = { 0: 'Activo', 1: 'Inactivo' };

/** What a role may do, independent of any patient. */
export type Action =
  | 'administer' // users, alarm rules, tags, AI instructions, webhooks, integrations, inventory, SMS outbox
  | 'patients.create'
  | 'patients.edit'
  | 'patients.change_status'
  | 'patients.set_deceased'
  | 'patients.add_tags'
  | 'clinical.write' // measurements, notes, conditions, alert handling
  | 'activities.manage'
  | 'orders.create'
  | 'alerts.config'
  | 'reports.get';

const ROLE_ACTIONS: Record<Role, ReadonlySet<Action>> = {
  admin: new Set<Action>([
    'administer',
    'patients.create',
    'patients.edit',
    'patients.change_status',
    'patients.set_deceased',
    'patients.add_tags',
    'clinical.write',
    'activities.manage',
    'orders.create',
    'alerts.config',
    'reports.get',
  ]),
  medico: new Set<Action>([
    'patients.create',
    'patients.edit',
    'patients.change_status',
    'patients.set_deceased',
    'patients.add_tags',
    'clinical.write',
    'activities.manage',
    'orders.create',
    'alerts.config',
    'reports.get',
  ]),
  enfermeria: new Set<Action>([
    'patients.create',
    'patients.edit',
    'patients.change_status',
    'patients.add_tags',
    'clinical.write',
    'activities.manage',
    'reports.get',
  ]),
  consulta: new Set<Action>(['reports.get']),
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, action: Action): boolean {
  return ROLE_ACTIONS[role]?.has(action) ?? false;
}

export interface PatientPermissions {
  edit: boolean;
  add_tags: boolean;
  add_tag: boolean;
  change_status: boolean;
  set_deceased: boolean;
  manage_activities: boolean;
  get_reports: boolean;
  config_alerts: boolean;
  create_order: boolean;
}

/**
 * A deceased patient accepts no change at all; an inactive one keeps its record editable and
 * can be re-activated, but gets no new orders or activity changes until then.
 */
export function patientPermissions(role: Role, status: number): PatientPermissions {
  const deceased = status === PATIENT_STATUS.deceased;
  const inactive = status === PATIENT_STATUS.inactive;
  const allow = (a: Action, blockedWhenInactive = false) => !deceased && !(inactive && blockedWhenInactive) && can(role, a);
  const addTags = allow('patients.add_tags');
  return {
    edit: allow('patients.edit'),
    add_tags: addTags,
    add_tag: addTags,
    change_status: allow('patients.change_status'),
    set_deceased: allow('patients.set_deceased'),
    manage_activities: allow('activities.manage', true),
    get_reports: can(role, 'reports.get'),
    config_alerts: allow('alerts.config', true),
    create_order: allow('orders.create', true),
  };
}
