import { useState } from 'react';
import { useInvalidate, useList } from '@refinedev/core';
import { formatWhen } from '@vigia/contract/rules/dates';
import { Button, Card, Input, Result, Space, Table, Tag, Typography } from 'antd';
import { AudioOutlined, FileImageOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession, staffTimeZone } from '../../session';
import { loadFailed } from '../../providers/notices';
import { can, isRole } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON } from '../../providers/access';
import '../../crud/crud.css';

type Message = Schemas['ChatMessage'];
const TITLE = 'Mensajes de números desconocidos';
const PAGE_SIZES = [10, 20, 50];
const RESOURCE = 'messaging/unknown_messages';

/** What came with the message besides its text (the audio's transcription when the provider sent it). */
function Attachments({ m }: { m: Message }) {
  const { image, audio } = m.attachments;
  if (!image && !audio) return null;
  return (
    <Space size={4} wrap>
      {image && <Tag icon={<FileImageOutlined />}>Imagen</Tag>}
      {audio && <Tag icon={<AudioOutlined />}>Audio</Tag>}
      {audio?.transcription && (
        <Typography.Text type="secondary" italic>
          “{audio.transcription}”
        </Typography.Text>
      )}
    </Space>
  );
}

/**
 * /unknown_messages (P91): messages received from numbers that match no patient of the client,
 * newest first, with a search on the text or the number. Only admins read them.
 */
export default function UnknownMessagesPage() {
  usePageTitle(TITLE);
  const role = readSession()?.role_name;
  const allowed = isRole(role) && can(role, 'administer');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const { query, result } = useList<Message>({
    resource: RESOURCE,
    filters: q ? [{ field: 'q', operator: 'eq', value: q }] : [],
    pagination: { currentPage: page, pageSize, mode: 'server' },
    queryOptions: { enabled: allowed, placeholderData: (previous) => previous },
    errorNotification: loadFailed,
  });
  const invalidate = useInvalidate();
  const timeZone = staffTimeZone();

  if (!allowed) {
    return (
      <PageHeader title={TITLE}>
        <Card>
          <Result status="403" title="Solo los administradores ven estos mensajes" subTitle={FORBIDDEN_REASON} />
        </Card>
      </PageHeader>
    );
  }

  return (
    <PageHeader
      title={TITLE}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void invalidate({ resource: RESOURCE, invalidates: ['list'] })}>
          Actualizar
        </Button>
      }
    >
      <Card>
        <Typography.Paragraph type="secondary">
          Mensajes recibidos por WhatsApp desde números que no corresponden al celular de ningún paciente. Para que los próximos mensajes
          lleguen al chat del paciente, registre ese número (indicativo y celular) en su información de contacto.
        </Typography.Paragraph>
        <Input.Search
          allowClear
          enterButton
          placeholder="Buscar por número o texto"
          aria-label="Buscar por número o texto"
          maxLength={100}
          style={{ maxWidth: 420, marginBottom: 16 }}
          onSearch={(v) => {
            setPage(1);
            setQ(v.trim());
          }}
        />
        <Table<Message>
          rowKey="id"
          loading={query.isFetching}
          dataSource={result.data}
          locale={{ emptyText: q ? 'Ningún mensaje coincide con la búsqueda.' : 'No hay mensajes de números desconocidos.' }}
          pagination={{
            current: page,
            pageSize,
            total: result.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            locale: { items_per_page: '/ página' },
            showTotal: (n) => `${n} mensaje(s)`,
            onChange: (p, size) => {
              setPage(size !== pageSize ? 1 : p);
              setPageSize(size);
            },
          }}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              title: 'Número',
              dataIndex: 'phone',
              render: (v: string | null) => (v ? <Typography.Text copyable>{`+${v}`}</Typography.Text> : '—'),
            },
            {
              title: 'Mensaje',
              key: 'text',
              render: (_, m) => (
                <Space direction="vertical" size={2} style={{ maxWidth: 480, whiteSpace: 'normal' }}>
                  {m.custom_message ? <span>{m.custom_message}</span> : <Typography.Text type="secondary">Sin texto</Typography.Text>}
                  <Attachments m={m} />
                </Space>
              ),
            },
            { title: 'Recibido', dataIndex: 'created_at', render: (v: string) => formatWhen(v, timeZone) },
          ]}
        />
      </Card>
    </PageHeader>
  );
}
