import { Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Button, Drawer, Dropdown, Input, Layout, Menu, Tooltip, Typography } from 'antd';
import type { MenuProps } from 'antd';
import {
  BellOutlined,
  DesktopOutlined,
  DownOutlined,
  LogoutOutlined,
  SafetyOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  MessageOutlined,
} from '@ant-design/icons';
import { useLogout, useResourceParams } from '@refinedev/core';
import type { LogoutParams } from '../providers/auth';
import { useStaffIdentity } from '../providers/identity';
import { displayName } from '@vigia/contract/rules/names';
import { Loading } from './Loading';
import { OfflineBanner } from './OfflineBanner';
import { VigiaLogo, VigiaMark } from './Logo';
import { menuFrom, selectedMenuKey, type MenuLink, type MenuTree } from './menu';
import { useInactivityLogout } from './useInactivityLogout';
import { useMediaQuery } from './useMediaQuery';
import './layout.css';

const FEEDBACK_KEY = 'feedback';
/** The user menu of the toolbar: the user's own pages (issue 20: 'Mis notificaciones'). */
const USER_MENU: MenuProps['items'] = [
  { key: '/my_notifications', icon: <BellOutlined />, label: 'Mis notificaciones' },
  { key: '/sessions', icon: <DesktopOutlined />, label: 'Sesiones activas' },
  { key: '/security', icon: <SafetyOutlined />, label: 'Seguridad' },
];
/** The sidebar collapses below 900 px (01 §2); phones get a drawer instead. */
const NARROW_QUERY = '(max-width: 899px)';
const PHONE_QUERY = '(max-width: 575px)';

function toItem(link: MenuLink): NonNullable<MenuProps['items']>[number] {
  return { key: link.path, icon: link.icon, label: link.label };
}

/** The sidebar's items: the registered resources' entries and groups, then 'Opinión'. */
function menuItems(tree: MenuTree): MenuProps['items'] {
  return [
    ...tree.links.map(toItem),
    ...tree.groups.map((g) => ({ type: 'group' as const, key: g.key, label: g.label, children: g.links.map(toItem) })),
    { type: 'divider' },
    { key: FEEDBACK_KEY, icon: <MessageOutlined />, label: 'Opinión' },
  ];
}

function initials(first?: string, last?: string) {
  return `${first?.[0] ?? ''}${last?.[0] ?? ''}`.toUpperCase() || '?';
}

function SidebarContent({ collapsed, onNavigate, onFeedback }: { collapsed: boolean; onNavigate?: () => void; onFeedback: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { resources } = useResourceParams();
  const tree = useMemo(() => menuFrom(resources), [resources]);
  const items = useMemo(() => menuItems(tree), [tree]);
  const selected = selectedMenuKey(pathname, tree);

  return (
    <div className="vigia-sider-content">
      <Link to="/dashboard" className="vigia-sider-logo" aria-label="Vigía, ir al Dashboard" onClick={onNavigate}>
        {collapsed ? <VigiaMark size={34} /> : <VigiaLogo size={34} />}
      </Link>
      {!collapsed && (
        <div className="vigia-sider-search">
          <Input.Search
            placeholder="Buscar paciente"
            aria-label="Buscar paciente por nombre o documento"
            allowClear
            onSearch={(q) => {
              const text = q.trim();
              navigate(text ? `/patients?q=${encodeURIComponent(text)}` : '/patients');
              onNavigate?.();
            }}
          />
        </div>
      )}
      <Menu
        mode="inline"
        inlineCollapsed={collapsed}
        items={items}
        selectedKeys={selected ? [selected] : []}
        onClick={({ key }) => {
          if (key === FEEDBACK_KEY) onFeedback();
          else navigate(key);
          onNavigate?.();
        }}
        className="vigia-menu"
      />
    </div>
  );
}

/**
 * Main layout (01 §2): sidebar, toolbar with client and user, and the routed page. The 'Opinión'
 * dialog is handed in by the app: a screen of its own (pages/feedbacks), below the shell (issue 40).
 */
export default function MainLayout({ FeedbackDialog }: { FeedbackDialog: ComponentType<{ open: boolean; onClose: () => void }> }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const narrow = useMediaQuery(NARROW_QUERY);
  const phone = useMediaQuery(PHONE_QUERY);
  const [collapsed, setCollapsed] = useState(narrow);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [feedbackLoaded, setFeedbackLoaded] = useState(false);
  const { mutate: logout } = useLogout<LogoutParams>();
  const user = useStaffIdentity();

  useEffect(() => setCollapsed(narrow), [narrow]);
  useEffect(() => setDrawerOpen(false), [pathname]);
  useInactivityLogout(() => logout({ reason: 'inactive' }), pathname);

  const openFeedback = () => {
    setFeedbackLoaded(true);
    setFeedbackOpen(true);
  };

  const fullName = displayName([user?.first_name, user?.last_name].filter(Boolean).join(' '));

  return (
    <Layout className="vigia-shell">
      {phone ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          width={280}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          <SidebarContent collapsed={false} onNavigate={() => setDrawerOpen(false)} onFeedback={openFeedback} />
        </Drawer>
      ) : (
        <Layout.Sider theme="light" width={256} collapsedWidth={72} collapsed={collapsed} trigger={null} className="vigia-sider">
          <SidebarContent collapsed={collapsed} onFeedback={openFeedback} />
        </Layout.Sider>
      )}

      <Layout className="vigia-body">
        <Layout.Header className="vigia-header">
          <Tooltip title={phone ? 'Menú' : collapsed ? 'Mostrar menú' : 'Ocultar menú'}>
            <Button
              type="text"
              aria-label={phone ? 'Abrir menú' : collapsed ? 'Mostrar menú' : 'Ocultar menú'}
              icon={phone || collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => (phone ? setDrawerOpen(true) : setCollapsed((c) => !c))}
            />
          </Tooltip>

          <div className="vigia-client">
            {user?.client_logo_url && <img src={user.client_logo_url} alt={`Logo de ${user.client_name}`} className="vigia-client-logo" />}
            <Typography.Text strong className="vigia-client-name vigia-one-line" title={user?.client_name}>
              {user?.client_name}
            </Typography.Text>
          </div>

          <div className="vigia-user">
            <Dropdown menu={{ items: USER_MENU, onClick: ({ key }) => navigate(key) }} trigger={['click']}>
              <Button type="text" className="vigia-user-menu">
                <span className="vigia-sr-only">Menú de usuario</span>
                {/* A span, not antd's Avatar: its text-fitting effect read the header's width mid-commit (issue 52). */}
                <span className="vigia-avatar vigia-user-avatar" aria-hidden>
                  {initials(user?.first_name, user?.last_name)}
                </span>
                <Typography.Text className="vigia-user-name vigia-one-line" title={fullName}>
                  {fullName}
                </Typography.Text>
                <DownOutlined aria-hidden />
              </Button>
            </Dropdown>
            <Button icon={<LogoutOutlined aria-hidden />} onClick={() => logout()}>
              {phone ? 'Salir' : 'Cerrar sesión'}
            </Button>
          </div>
        </Layout.Header>

        <Layout.Content className="vigia-content">
          <OfflineBanner />
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>

      {feedbackLoaded && (
        <Suspense fallback={null}>
          <FeedbackDialog open={feedbackOpen} onClose={() => setFeedbackOpen(false)} />
        </Suspense>
      )}
    </Layout>
  );
}
