import { describe, expect, it } from 'vitest';
import { can, ROLES, type Role } from '@vigia/contract/rules/access';
import { refineResources } from './registry';
import { menuFrom, selectedMenuKey } from '../layout/menu';

const entries = (links: { path: string; label: string }[]) => links.map(({ path, label }) => [path, label]);

describe('side menu derived from the registered resources (01 §2)', () => {
  const tree = menuFrom(refineResources, (action) => can('admin', action));

  it('lists the main entries, then the Configuración group, in order', () => {
    expect(entries(tree.links)).toEqual([
      ['/dashboard', 'Dashboard'],
      ['/triage', 'Priorización'],
      ['/patients', 'Pacientes'],
      ['/patients/new', 'Nuevo paciente'],
      ['/orders', 'Gestión de órdenes'],
      ['/activities', 'Actividades'],
      ['/alerts_management', 'Gestión de alertas'],
    ]);
    expect(tree.groups.map((g) => g.label)).toEqual(['Configuración']);
    expect(entries(tree.groups[0].links)).toEqual([
      ['/users', 'Usuarios'],
      ['/inventory', 'Inventario'],
      ['/moves', 'Movimientos'],
      ['/supplies', 'Suministros'],
      ['/alerts', 'Alertas'],
      ['/tags', 'Etiquetas'],
      ['/client_prompts', 'Instrucciones IA'],
      ['/webhooks', 'Webhooks HL7 FHIR'],
      ['/integrations', 'Integraciones'],
      ['/api_clients', 'Clientes de API'],
      ['/fhir_exports', 'Exportaciones FHIR'],
      ['/rdas', 'RDA enviados'],
      ['/ihce', 'IHCE (RDA)'],
      ['/unknown_messages', 'Números desconocidos'],
      ['/reports', 'Reportes'],
      ['/audit', 'Auditoría'],
      ['/notifications', 'Notificaciones'],
    ]);
    expect([...tree.links, ...tree.groups[0].links].every((l) => l.icon)).toBe(true);
  });

  it('highlights the longest menu path that starts the current one', () => {
    expect(selectedMenuKey('/patients/new', tree)).toBe('/patients/new');
    expect(selectedMenuKey('/patients/12/alerts/3', tree)).toBe('/patients');
    expect(selectedMenuKey('/alerts_management', tree)).toBe('/alerts_management');
    expect(selectedMenuKey('/encounters/4', tree)).toBeUndefined();
  });
});

/** The screens whose list operation answers only administrators (requireStaff('administer')). */
const ADMIN_ONLY = ['/api_clients', '/fhir_exports', '/ihce', '/notifications', '/unknown_messages', '/audit'];

describe('the menu offers a role only the screens it may open (issue 41)', () => {
  it.each(ROLES.map((role) => [role, can(role, 'administer')] as [Role, boolean]))('%s (administers: %s)', (role, administers) => {
    const tree = menuFrom(refineResources, (action) => can(role, action));
    const paths = [...tree.links, ...tree.groups.flatMap((g) => g.links)].map((l) => l.path);
    for (const path of ADMIN_ONLY) expect(paths.includes(path), path).toBe(administers);
    // Issue 51: listRdas answers administrators and clinicians (clinical.write).
    expect(paths.includes('/rdas')).toBe(can(role, 'clinical.write'));
    expect(paths).toContain('/patients');
    expect(paths).toContain('/reports');
  });

  it('drops a group none of whose screens the role may open', () => {
    const tree = menuFrom(
      [
        { name: 'settings', meta: { label: 'Ajustes', group: true } },
        { name: 'secret', list: '/secret', meta: { label: 'Secreto', parent: 'settings', requires: 'administer' } },
        { name: 'open', list: '/open', meta: { label: 'Abierto' } },
      ],
      () => false,
    );
    expect(tree.groups).toEqual([]);
    expect(tree.links.map((l) => l.path)).toEqual(['/open']);
  });
});
