import { useState } from 'react';
import { formatWhen } from '@vigia/contract/rules/dates';
import { Card, Input, Space, Table, Tag, Typography } from 'antd';
import { AudioOutlined, FileImageOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { AdminOnlyListPage, emptyTextOf, useAdminOnlyList } from '../../crud/AdminOnlyList';
import { usePageTitle } from '../../layout/usePageTitle';
import { staffTimeZone } from '../../session';
import '../../crud/crud.css';

type Message = Schemas['ChatMessage'];
const TITLE = 'Mensajes de números desconocidos';
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
  const [q, setQ] = useState('');
  const list = useAdminOnlyList<Message>(RESOURCE, q ? [{ field: 'q', operator: 'eq', value: q }] : []);
  const timeZone = staffTimeZone();

  return (
    <AdminOnlyListPage title={TITLE} forbidden="Solo los administradores ven estos mensajes" list={list}>
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
            setQ(v.trim());
          }}
        />
        <Table<Message>
          rowKey="id"
          loading={list.loading}
          dataSource={list.rows}
          locale={{
            emptyText: emptyTextOf(list, q ? 'Ningún mensaje coincide con la búsqueda.' : 'No hay mensajes de números desconocidos.'),
          }}
          pagination={{ ...list.pagination, showTotal: (n) => `${n} mensaje(s)` }}
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
    </AdminOnlyListPage>
  );
}
