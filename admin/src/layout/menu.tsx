import type { ReactNode } from 'react';
import {
  AlertOutlined,
  ApiOutlined,
  AppstoreAddOutlined,
  AuditOutlined,
  CommentOutlined,
  BarChartOutlined,
  BellOutlined,
  CalendarOutlined,
  DashboardOutlined,
  RobotOutlined,
  SolutionOutlined,
  TagsOutlined,
  TeamOutlined,
  InboxOutlined,
  SwapOutlined,
  MedicineBoxOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';

export type MenuLink = { path: string; label: string; icon: ReactNode };

/** Sidebar of 01 §2. The menu shows all items to everyone. */
export const MAIN_LINKS: MenuLink[] = [
  { path: '/dashboard', label: 'Dashboard', icon: <DashboardOutlined /> },
  { path: '/patients', label: 'Pacientes', icon: <TeamOutlined /> },
  { path: '/patients/new', label: 'Nuevo paciente', icon: <UserAddOutlined /> },
  { path: '/orders', label: 'Gestión de órdenes', icon: <SolutionOutlined /> },
  { path: '/activities', label: 'Actividades', icon: <CalendarOutlined /> },
  { path: '/alerts_management', label: 'Gestión de alertas', icon: <AlertOutlined /> },
];

export const CONFIGURATION_LABEL = 'Configuración';

export const CONFIGURATION_LINKS: MenuLink[] = [
  { path: '/users', label: 'Usuarios', icon: <UserOutlined /> },
  { path: '/inventory', label: 'Inventario', icon: <InboxOutlined /> },
  { path: '/moves', label: 'Movimientos', icon: <SwapOutlined /> },
  { path: '/supplies', label: 'Suministros', icon: <MedicineBoxOutlined /> },
  { path: '/alerts', label: 'Alertas', icon: <BellOutlined /> },
  { path: '/tags', label: 'Etiquetas', icon: <TagsOutlined /> },
  { path: '/client_prompts', label: 'Instrucciones IA', icon: <RobotOutlined /> },
  { path: '/webhooks', label: 'Webhooks HL7 FHIR', icon: <ApiOutlined /> },
  { path: '/integrations', label: 'Integraciones', icon: <AppstoreAddOutlined /> },
  { path: '/unknown_messages', label: 'Números desconocidos', icon: <CommentOutlined /> },
  { path: '/reports', label: 'Reportes', icon: <BarChartOutlined /> },
  { path: '/audit', label: 'Auditoría', icon: <AuditOutlined /> },
];

/** The menu entry to highlight: the longest menu path that starts the current path. */
export function selectedMenuKey(pathname: string): string | undefined {
  const all = [...MAIN_LINKS, ...CONFIGURATION_LINKS].map((l) => l.path);
  return all.filter((path) => pathname === path || pathname.startsWith(`${path}/`)).sort((a, b) => b.length - a.length)[0];
}
