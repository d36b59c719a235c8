import type { ReactNode } from 'react';
import type { ResourceProps } from '@refinedev/core';
import {
  AlertOutlined,
  ApiOutlined,
  AppstoreAddOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  CalendarOutlined,
  CommentOutlined,
  DashboardOutlined,
  InboxOutlined,
  MedicineBoxOutlined,
  RobotOutlined,
  SolutionOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { basePath, type AnyResource } from '../crud/types';
import { alarms } from './alarms';
import { moves } from './moves';
import { orders } from './orders';
import { stocks } from './stocks';
import { supplies } from './supplies';
import { tags } from './tags';
import { users } from './users';

/** What the side menu reads from a resource's `meta` (01 §2). */
export type MenuMeta = {
  label?: string;
  icon?: ReactNode;
  /** A menu group (a resource with `meta.group`) the entry sits in. */
  parent?: string;
  /** A group heading instead of a link. */
  group?: boolean;
  /** Registered, but not in the menu. */
  hide?: boolean;
  /** A second menu entry for the create screen (01 §2: 'Nuevo paciente'). */
  createLabel?: string;
  createIcon?: ReactNode;
};

const CONFIGURATION = 'configuration';

/** A generic CRUD resource (crud/), routes per action. */
function crud(resource: AnyResource, meta: MenuMeta): ResourceProps {
  const path = basePath(resource);
  return {
    name: resource.name,
    list: path,
    create: `${path}/create`,
    edit: `${path}/edit/:id`,
    show: resource.detail ? undefined : `${path}/show/:id`,
    meta: { label: resource.labels.list, ...meta },
  };
}

/** A hand-built screen: its resource name, its list route and its menu entry. */
function screen(name: string, list: string, meta: MenuMeta): ResourceProps {
  return { name, list, meta };
}

/**
 * Every resource and hand-built screen, in menu order (01 §2). `<Refine resources>` registers this
 * list and the side menu is derived from it; the menu shows all items to everyone.
 */
export const refineResources: ResourceProps[] = [
  screen('dashboard', '/dashboard', { label: 'Dashboard', icon: <DashboardOutlined /> }),
  {
    name: 'patients',
    list: '/patients',
    create: '/patients/new',
    meta: { label: 'Pacientes', icon: <TeamOutlined />, createLabel: 'Nuevo paciente', createIcon: <UserAddOutlined /> },
  },
  crud(orders, { icon: <SolutionOutlined /> }),
  screen('activities', '/activities', { label: 'Actividades', icon: <CalendarOutlined /> }),
  screen('alerts', '/alerts_management', { label: 'Gestión de alertas', icon: <AlertOutlined /> }),

  { name: CONFIGURATION, meta: { label: 'Configuración', group: true } },
  crud(users, { icon: <UserOutlined />, parent: CONFIGURATION }),
  crud(stocks, { icon: <InboxOutlined />, parent: CONFIGURATION }),
  crud(moves, { icon: <SwapOutlined />, parent: CONFIGURATION }),
  crud(supplies, { icon: <MedicineBoxOutlined />, parent: CONFIGURATION }),
  crud(alarms, { icon: <BellOutlined />, parent: CONFIGURATION }),
  crud(tags, { icon: <TagsOutlined />, parent: CONFIGURATION }),
  screen('client_prompts', '/client_prompts', { label: 'Instrucciones IA', icon: <RobotOutlined />, parent: CONFIGURATION }),
  screen('webhooks', '/webhooks', { label: 'Webhooks HL7 FHIR', icon: <ApiOutlined />, parent: CONFIGURATION }),
  screen('integrations', '/integrations', { label: 'Integraciones', icon: <AppstoreAddOutlined />, parent: CONFIGURATION }),
  screen('unknown_messages', '/unknown_messages', { label: 'Números desconocidos', icon: <CommentOutlined />, parent: CONFIGURATION }),
  screen('reports', '/reports', { label: 'Reportes', icon: <BarChartOutlined />, parent: CONFIGURATION }),
  screen('audit', '/audit', { label: 'Auditoría', icon: <AuditOutlined />, parent: CONFIGURATION }),

  // Screens reached from others, not from the menu.
  { name: 'encounters', show: '/encounters/:id', meta: { hide: true } },
];
