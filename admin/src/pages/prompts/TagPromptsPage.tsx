import { useOne } from '@refinedev/core';
import { Link, useParams } from 'react-router';
import { Button, Result, Tag } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { tagColor } from '../../crud/palette';
import { usePageTitle } from '../../layout/usePageTitle';
import { readSession } from '../../session';
import { can, isRole } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON } from '../../providers/access';
import { PromptsPanel } from '../../components/PromptsPanel';

/** /tags/:id/prompts: a tag's AI instructions (02 §2.11 'Glady IA'). */
export default function TagPromptsPage() {
  const { id } = useParams();
  usePageTitle('Instrucciones de Glady IA para la etiqueta');
  // A missing tag is the page's own message, not a notification.
  const { query, result } = useOne<Schemas['Tag']>({ resource: 'tags', id, errorNotification: false });
  const tag = result ?? null;
  const failure = query.isError ? query.error.message || 'La etiqueta no existe.' : null;
  const role = readSession()?.role_name;
  const canWrite = isRole(role) && can(role, 'administer');

  const back = (
    <Link to="/tags">
      <Button icon={<ArrowLeftOutlined />}>Volver a etiquetas</Button>
    </Link>
  );
  if (failure) return <Result status="404" title={failure} extra={back} />;
  return (
    <PageHeader
      title={
        <>
          Instrucciones de Glady IA para la etiqueta{' '}
          {tag && (
            <Tag style={{ background: tagColor(tag.color).background, color: tagColor(tag.color).text, border: 0, fontSize: 14 }}>
              {tag.name}
            </Tag>
          )}
        </>
      }
      extra={back}
    >
      {tag && (
        <PromptsPanel
          owner={{ kind: 'tag', id: tag.id }}
          heading={`Instrucciones para Glady IA de los pacientes con la etiqueta ${tag.name}`}
          titles={{ create: 'Nueva instrucción de etiqueta', edit: 'Editar instrucción de etiqueta' }}
          canWrite={canWrite}
          disabledReason={FORBIDDEN_REASON}
          allowDelete
        />
      )}
    </PageHeader>
  );
}
