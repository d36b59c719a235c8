import { describe, it, expect } from 'vitest';
import { can, patientPermissions } from './access';

describe('role permissions (D13)', () => {
  it.each([
    ['admin', 'administer', true],
    ['medico', 'administer', false],
    ['enfermeria', 'administer', false],
    ['consulta', 'administer', false],
    ['medico', 'orders.create', true],
    ['enfermeria', 'orders.create', false],
    ['enfermeria', 'patients.set_deceased', false],
    ['medico', 'patients.set_deceased', true],
    ['consulta', 'patients.edit', false],
    ['consulta', 'reports.get', true],
  ] as const)('%s may %s: %s', (role, action, expected) => {
    expect(can(role, action)).toBe(expected);
  });
});

describe('per-patient permissions object', () => {
  it('gives an admin everything on an active patient', () => {
    expect(Object.values(patientPermissions('admin', 1)).every(Boolean)).toBe(true);
  });
  it('allows nothing but reports on a deceased patient, for any role', () => {
    for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
      const p = patientPermissions(role, 3);
      expect(p.get_reports).toBe(true);
      expect(Object.entries(p).filter(([k, v]) => k !== 'get_reports' && v)).toEqual([]);
    }
  });
  it('lets an inactive patient be edited and re-activated, but not given orders or activity changes', () => {
    const p = patientPermissions('medico', 0);
    expect(p).toMatchObject({ edit: true, change_status: true, create_order: false, manage_activities: false, config_alerts: false });
  });
  it('keeps consulta read-only', () => {
    expect(patientPermissions('consulta', 1)).toMatchObject({ edit: false, add_tags: false, change_status: false, create_order: false });
  });
  it('treats an incomplete patient like an active one', () => {
    expect(patientPermissions('enfermeria', 2)).toEqual(patientPermissions('enfermeria', 1));
  });
});
