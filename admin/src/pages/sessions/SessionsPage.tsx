import { Button, Card, List, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import { DesktopOutlined } from '@ant-design/icons';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { loadFailed, serverError } from '../../providers/notices';
import { staffTimeZone } from '../../session';
import { ItemMeta } from '../../ui/ItemMeta';
import { ReadState } from '../../ui/ReadState';

type SessionsEnded = Schemas['SessionsEnded'];

const TITLE = 'Sesiones activas';

/**
 * /sessions (issue 38), from the toolbar's user menu: every open session of the user, with when it
 * started and was last used, the browser and the address; end one, or every other. An ended
 * session's next request is refused and its screen goes to the login saying why.
 */
export default function SessionsPage() {
  usePageTitle(TITLE);
  const timeZone = staffTimeZone();
  const { query } = useApiQuery('/sessions/mine', { errorNotification: loadFailed });
  const sessions = query.data?.data ?? [];
  const { mutate, mutation } = useApiMutation();

  /** Ends one session, or (without an id) every other one. */
  const end = (sessionId?: string) => {
    const notices = {
      successNotification: (data: { data?: SessionsEnded }) =>
        ({ type: 'success', message: data?.data?.message ?? 'Sesión cerrada' }) as const,
      errorNotification: serverError('No fue posible cerrar la sesión'),
    };
    const callbacks = { onSuccess: () => void query.refetch() };
    if (sessionId === undefined) mutate({ method: 'delete', path: '/sessions/mine', ...notices }, callbacks);
    else mutate({ method: 'delete', path: '/sessions/{id}', params: { id: sessionId }, ...notices }, callbacks);
  };

  const others = sessions.filter((s) => !s.current).length;
  return (
    <PageHeader
      title={TITLE}
      extra={
        <Popconfirm
          title="¿Cerrar todas las demás sesiones?"
          description="Se cerrarán en los demás navegadores y dispositivos; esta sigue abierta."
          okText="Cerrar las demás"
          cancelText="Cancelar"
          onConfirm={() => end()}
          disabled={others === 0}
        >
          <Button danger disabled={others === 0} loading={mutation.isPending}>
            Cerrar las demás sesiones
          </Button>
        </Popconfirm>
      }
    >
      <Card style={{ maxWidth: 820 }}>
        <Typography.Paragraph type="secondary">
          Las sesiones abiertas con su cuenta. Si no reconoce alguna, ciérrela y cambie su contraseña.
        </Typography.Paragraph>
        {/* A failed read is never 'No hay sesiones abiertas.' (P212). */}
        <ReadState reads={[query]} what="sus sesiones" isEmpty={sessions.length === 0} loading={<Skeleton active />}>
          <List
            itemLayout="horizontal"
            dataSource={sessions}
            locale={{ emptyText: 'No hay sesiones abiertas.' }}
            renderItem={(s) => (
              <List.Item
                actions={
                  s.current
                    ? []
                    : [
                        <Popconfirm
                          key="end"
                          title="¿Cerrar esta sesión?"
                          okText="Cerrar sesión"
                          cancelText="Cancelar"
                          onConfirm={() => end(s.id)}
                        >
                          <Button size="small" danger aria-label={`Cerrar la sesión de ${s.browser}`}>
                            Cerrar
                          </Button>
                        </Popconfirm>,
                      ]
                }
              >
                <ItemMeta
                  avatar={<DesktopOutlined style={{ fontSize: 22 }} aria-hidden />}
                  title={
                    <span>
                      {s.browser} {s.current && <Tag color="green">Esta sesión</Tag>}
                    </span>
                  }
                  description={
                    <>
                      <div>Inició: {formatWhen(s.created_at, timeZone)}</div>
                      <div>Último uso: {formatWhen(s.last_used_at, timeZone)}</div>
                      <div>Dirección: {s.ip ?? 'desconocida'}</div>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        </ReadState>
      </Card>
    </PageHeader>
  );
}
