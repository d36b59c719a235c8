import { lazy, type ReactNode } from 'react';
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
  KeyOutlined,
  MedicineBoxOutlined,
  NotificationOutlined,
  OrderedListOutlined,
  RobotOutlined,
  SolutionOutlined,
  SwapOutlined,
  TagsOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { Action } from '@vigia/contract/rules/access';
import { crudScreens, type Screen } from '../crud/routes';
import { basePath, showPath, type AnyResource } from '../crud/types';
import { registerResourceName } from '../providers/i18n';
import { registerWriteAction } from '../providers/access';
import { alarms } from './alarms';
import { apiClients } from './api_clients';
import { fhirExportsResource } from './fhir_exports';
import { ihceResource, rdasResource } from './rdas';
import { PATIENT_PAGE } from '../route-modules';
import { lazyLoaded } from '../ui/loaded-lazy';
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
  /** The action a role needs to open the screen (its list operation's own check); others do not see the entry. */
  requires?: Action;
  /** A second menu entry for the create screen (01 §2: 'Nuevo paciente'). */
  createLabel?: string;
  createIcon?: ReactNode;
  /** The routed screens this resource owns (AppShell derives its `<Route>`s from them). */
  screens?: Screen[];
};

/** The hand-built pages, each loaded when first shown. */
const DashboardPage = lazy(() => import('../pages/dashboard/DashboardPage'));
const PatientsListPage = lazy(() => import('../pages/patients/PatientsListPage'));
const PatientPage = lazyLoaded(PATIENT_PAGE);
const OrderDetailPage = lazy(() => import('../pages/orders/OrderDetailPage'));
const ActivitiesPage = lazy(() => import('../pages/activities/ActivitiesPage'));
const AlertsManagerPage = lazy(() => import('../pages/alerts/AlertsManagerPage'));
const AlertDetailPage = lazy(() => import('../pages/alerts/AlertDetailPage'));
const StockPage = lazy(() => import('../pages/stocks/StockPage'));
const TagPromptsPage = lazy(() => import('../pages/prompts/TagPromptsPage'));
const ClientPromptsPage = lazy(() => import('../pages/client_prompts/ClientPromptsPage'));
const WebhooksPage = lazy(() => import('../pages/webhooks/WebhooksPage'));
const IntegrationsPage = lazy(() => import('../pages/integrations/IntegrationsPage'));
const UnknownMessagesPage = lazy(() => import('../pages/unknown_messages/UnknownMessagesPage'));
const ReportsPage = lazy(() => import('../pages/reports/ReportsPage'));
const AuditPage = lazy(() => import('../pages/audit/AuditPage'));
const EncounterPage = lazy(() => import('../pages/encounters/EncounterPage'));
const NotificationsPage = lazy(() => import('../pages/notifications/NotificationsPage'));
const MyNotificationsPage = lazy(() => import('../pages/my_notifications/MyNotificationsPage'));
const SessionsPage = lazy(() => import('../pages/sessions/SessionsPage'));
const UserSessionsPage = lazy(() => import('../pages/sessions/UserSessionsPage'));
const SecurityPage = lazy(() => import('../pages/security/SecurityPage'));
const UserFactorsPage = lazy(() => import('../pages/security/UserFactorsPage'));
const TriagePage = lazy(() => import('../pages/triage/TriagePage'));

const CONFIGURATION = 'configuration';

/** Every declaration the generic CRUD screens render, in the order the registry lists them. */
export const crudResources: AnyResource[] = [];

/** A generic CRUD resource (crud/), routes per action; `more` are its hand-built screens (a record's own page). */
function crud(resource: AnyResource, meta: MenuMeta, more: Screen[] = []): ResourceProps {
  crudResources.push(resource);
  registerResourceName(resource.name, resource.labels.singular);
  registerWriteAction(resource.name, resource.writes);
  const path = basePath(resource);
  return {
    name: resource.name,
    list: path,
    create: `${path}/create`,
    edit: `${path}/edit/:id`,
    show: showPath(resource) ?? undefined,
    meta: { label: resource.labels.list, ...meta, screens: [...crudScreens(resource), ...more] },
  };
}

/** A hand-built screen: its resource name, its list route and page, its menu entry, and the screens it leads to. */
function screen(name: string, list: string, page: ReactNode, meta: MenuMeta, more: Screen[] = []): ResourceProps {
  return { name, list, meta: { ...meta, screens: [{ path: list, element: page }, ...more] } };
}

/**
 * Every resource and hand-built screen, in menu order (01 §2). `<Refine resources>` registers this
 * list, and the side menu and the routes are derived from it; a screen with `requires` is in the
 * menu only of the roles its list operation answers.
 */
export const refineResources: ResourceProps[] = [
  screen('dashboard', '/dashboard', <DashboardPage />, { label: 'Dashboard', icon: <DashboardOutlined /> }),
  // Which patients need a nurse today (issue 21).
  screen('triage', '/triage', <TriagePage />, { label: 'Priorización', icon: <OrderedListOutlined /> }),
  {
    name: 'patients',
    list: '/patients',
    create: '/patients/new',
    meta: {
      label: 'Pacientes',
      icon: <TeamOutlined />,
      createLabel: 'Nuevo paciente',
      createIcon: <UserAddOutlined />,
      // The list, the new-patient dialog over it (sidebar 'Nuevo paciente'), and the patient page (issue 3).
      screens: [
        { path: '/patients', element: <PatientsListPage /> },
        { path: '/patients/new', element: <PatientsListPage newPatient /> },
        { path: '/patients/:id', element: <PatientPage /> },
      ],
    },
  },
  // An order's detail (02 §2.5).
  crud(orders, { icon: <SolutionOutlined /> }, [{ path: '/patients/:patient_id/orders/:order_id', element: <OrderDetailPage /> }]),
  screen('activities', '/activities', <ActivitiesPage />, { label: 'Actividades', icon: <CalendarOutlined /> }),
  // Alert handling (02 §2.8, §2.9); the alarm rules screen (/alerts) is the `alarms` resource.
  screen('alerts', '/alerts_management', <AlertsManagerPage />, { label: 'Gestión de alertas', icon: <AlertOutlined /> }, [
    { path: '/patients/:patient_id/alerts/:alert_id', element: <AlertDetailPage /> },
  ]),

  { name: CONFIGURATION, meta: { label: 'Configuración', group: true } },
  crud(users, { icon: <UserOutlined />, parent: CONFIGURATION }, [
    { path: '/users/:id/sessions', element: <UserSessionsPage /> },
    { path: '/users/:id/factors', element: <UserFactorsPage /> },
  ]),
  // 'Ver Lote' (issue 5): one record of the stocks, whose list is /inventory.
  crud(stocks, { icon: <InboxOutlined />, parent: CONFIGURATION }, [{ path: '/stocks/:id', element: <StockPage resource={stocks} /> }]),
  crud(moves, { icon: <SwapOutlined />, parent: CONFIGURATION }),
  crud(supplies, { icon: <MedicineBoxOutlined />, parent: CONFIGURATION }),
  crud(alarms, { icon: <BellOutlined />, parent: CONFIGURATION }),
  // A tag's AI instructions (02 §2.11, 03 §2).
  crud(tags, { icon: <TagsOutlined />, parent: CONFIGURATION }, [{ path: '/tags/:id/prompts', element: <TagPromptsPage /> }]),
  screen('client_prompts', '/client_prompts', <ClientPromptsPage />, {
    label: 'Instrucciones IA',
    icon: <RobotOutlined />,
    parent: CONFIGURATION,
  }),
  screen('webhooks', '/webhooks', <WebhooksPage />, { label: 'Webhooks HL7 FHIR', icon: <ApiOutlined />, parent: CONFIGURATION }),
  screen('integrations', '/integrations', <IntegrationsPage />, {
    label: 'Integraciones',
    icon: <AppstoreAddOutlined />,
    parent: CONFIGURATION,
  }),
  // Issue 37: the systems that read FHIR with their own keys, reached from 'Integraciones' too.
  crud(apiClients, { icon: <KeyOutlined />, parent: CONFIGURATION, requires: 'administer' }),
  // Issue 37: the organisation's Bulk Data exports, started and downloaded by an administrator.
  fhirExportsResource(CONFIGURATION),
  // Issue 51: the RDA sent to the Ministry's platform, and (administrators) the connection with it.
  rdasResource(CONFIGURATION),
  ihceResource(CONFIGURATION),
  screen('unknown_messages', '/unknown_messages', <UnknownMessagesPage />, {
    label: 'Números desconocidos',
    icon: <CommentOutlined />,
    parent: CONFIGURATION,
    requires: 'administer',
  }),
  screen('reports', '/reports', <ReportsPage />, { label: 'Reportes', icon: <BarChartOutlined />, parent: CONFIGURATION }),
  screen('audit', '/audit', <AuditPage />, { label: 'Auditoría', icon: <AuditOutlined />, parent: CONFIGURATION, requires: 'administer' }),
  // Issue 20: the record of every message sent or tried, and the escalation delay.
  screen('notifications', '/notifications', <NotificationsPage />, {
    label: 'Notificaciones',
    icon: <NotificationOutlined />,
    parent: CONFIGURATION,
    requires: 'administer',
  }),

  // Screens reached from others, not from the menu.
  { name: 'encounters', show: '/encounters/:id', meta: { hide: true, screens: [{ path: '/encounters/:id', element: <EncounterPage /> }] } },
  // Issue 20: the user's own channels and priorities, from the toolbar's user menu.
  screen('my_notifications', '/my_notifications', <MyNotificationsPage />, { label: 'Mis notificaciones', hide: true }),
  // Issue 38: the user's open sessions, from the same menu.
  screen('sessions', '/sessions', <SessionsPage />, { label: 'Sesiones activas', hide: true }),
  // Issue 38: the user's second factor (and, for administrators, the organisation's policy).
  screen('security', '/security', <SecurityPage />, { label: 'Seguridad', hide: true }),
];

/** Every routed screen of the registry, once each (the shell turns them into `<Route>`s). */
export const registeredScreens: Screen[] = refineResources.flatMap((r) => (r.meta as MenuMeta | undefined)?.screens ?? []);
