import { describe, expect, it } from 'vitest';
import { refineResources } from '../resources/registry';
import { menuFrom, selectedMenuKey } from './menu';

const entries = (links: { path: string; label: string }[]) => links.map(({ path, label }) => [path, label]);

describe('side menu derived from the registered resources (01 §2)', () => {
  const tree = menuFrom(refineResources);

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
