import { Link, useParams } from 'react-router';
import { useInvalidate, useOne } from '@refinedev/core';
import { Alert, Button, Card, Descriptions, List, Space, Tag, Tooltip, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { contractDoc } from '../../crud/contract-doc';
import { RecordPageTitle } from '../../crud/PageHeader';
import { enumLabel, objectSchema } from '../../crud/schema-rules';
import { usePageTitle } from '../../layout/usePageTitle';
import { roleAccess } from '../../providers/access';
import { useApiMutation } from '../../providers/calls';
import { loadFailedUnlessMissing, serverError, success } from '../../providers/notices';
import { staffTimeZone } from '../../session';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import { canResendRda, RdaStatusTag, RdaVersions, rdaKindText, rdaVersionText, rdaWaitsForEarlier } from '../../components/rda-status';
import { RdaDocument } from './RdaDocument';
import './rdas.css';

type RdaDetail = Schemas['RdaDetail'];
type RdaIssue = Schemas['RdaIssue'];

/** The title's way back: the list, by its menu name. */
const RDAS = { name: 'rdas', path: '/rdas', labels: { list: 'RDA enviados', singular: 'RDA' } };

const count = new Intl.NumberFormat('es-CO');

function severityText(severity: RdaIssue['severity']): string {
  const schema = objectSchema(contractDoc, 'RdaIssue').properties?.severity;
  return (schema && enumLabel(schema, severity)) ?? severity;
}

/** Each problem the Ministry's platform named: how grave, where in the document, and what, in Spanish. */
function RdaIssues({ issues }: { issues: RdaIssue[] }) {
  return (
    <List
      className="rda-issues"
      size="small"
      dataSource={issues}
      renderItem={(issue, i) => (
        <List.Item key={i}>
          <Space wrap size={4}>
            <Tag color={issue.severity === 'warning' || issue.severity === 'information' ? 'warning' : 'error'}>
              {severityText(issue.severity)}
            </Tag>
            <Typography.Text strong>{issue.message}</Typography.Text>
          </Space>
          {issue.location && (
            <div>
              <Typography.Text type="secondary">Ubicación: </Typography.Text>
              <span className="rda-issue-location">{issue.location}</span>
            </div>
          )}
        </List.Item>
      )}
    />
  );
}

/** 'Reenviar' (resendRda): administrators, and only for a document the platform does not hold. */
function ResendButton({ rda }: { rda: RdaDetail }) {
  const access = roleAccess('administer');
  const { mutate, mutation } = useApiMutation();
  const invalidate = useInvalidate();
  const waits = rdaWaitsForEarlier(rda);
  const allowed = access.allowed && canResendRda(rda.status) && !waits;
  const reason = !access.allowed
    ? access.reason
    : waits
      ? 'Esta nota aclaratoria espera a que la plataforma reciba la versión anterior; se enviará sola.'
      : 'Este RDA ya está en la plataforma IHCE: no se vuelve a enviar.';
  return (
    <Tooltip title={allowed ? undefined : reason}>
      <Button
        type="primary"
        icon={<SendOutlined />}
        disabled={!allowed}
        loading={mutation.isPending}
        onClick={() =>
          mutate(
            {
              method: 'post',
              path: '/rdas/{id}/resend',
              params: { id: rda.id },
              successNotification: success('RDA puesto en cola para su envío'),
              errorNotification: serverError('No fue posible reenviar el RDA. Intente de nuevo.'),
            },
            { onSuccess: () => void invalidate({ resource: 'rdas', invalidates: ['all'] }) },
          )
        }
      >
        Reenviar
      </Button>
    </Tooltip>
  );
}

/**
 * One RDA, /rdas/show/:id (issue 51): its sending status, the Ministry's issues when it refused it,
 * 'Reenviar' for administrators, and the document itself, readable, with its JSON folded away.
 */
export default function RdaDetailPage() {
  const { id } = useParams();
  const { query, result } = useOne<RdaDetail>({
    resource: 'rdas',
    id: Number(id),
    queryOptions: { enabled: Number(id) > 0 },
    errorNotification: loadFailedUnlessMissing,
  });
  const rda = result ?? null;
  const status = useReadState([query], false, 'el RDA');
  const timeZone = staffTimeZone();
  const when = (iso: string | null) => (iso ? formatWhen(iso, timeZone) : '—');
  usePageTitle(rda ? `${rdaKindText(rda.kind)} ${rda.id}` : 'RDA');
  const missing = query.isError && (query.error as { statusCode?: number } | null)?.statusCode === 404;

  return (
    <section className="vigia-page">
      <header className="vigia-page-header">
        <RecordPageTitle resource={RDAS} title={rda ? rdaKindText(rda.kind) : 'RDA'} />
        {rda && (
          <div className="vigia-page-extra">
            <ResendButton rda={rda} />
          </div>
        )}
      </header>
      <div className="vigia-page-body">
        {missing ? (
          <Alert type="warning" showIcon message="Este RDA no existe o no es de su institución." />
        ) : (
          <ReadStateView status={status}>
            {rda && (
              <Space direction="vertical" size={16} style={{ width: '100%' }}>
                <Card title="Envío a la plataforma IHCE">
                  <Descriptions
                    size="small"
                    column={{ xs: 1, md: 2, xl: 3 }}
                    items={[
                      { key: 'status', label: 'Estado', children: <RdaStatusTag status={rda.status} /> },
                      {
                        key: 'patient',
                        label: 'Paciente',
                        children: <Link to={`/patients/${rda.patient_id}`}>{rda.patient_name ?? `Paciente ${rda.patient_id}`}</Link>,
                      },
                      { key: 'created', label: 'Escrito', children: when(rda.created_at) },
                      { key: 'sent', label: 'Enviado', children: when(rda.sent_at) },
                      { key: 'attempts', label: 'Intentos', children: count.format(rda.attempts) },
                      ...(rda.next_attempt_at && rda.status === 'pendiente'
                        ? [{ key: 'next', label: 'Próximo intento', children: when(rda.next_attempt_at) }]
                        : []),
                      { key: 'version', label: 'Versión', children: rdaVersionText(rda) },
                      { key: 'identifier', label: 'Identificador', children: <span className="rda-issue-location">{rda.identifier}</span> },
                      ...(rda.remote_id ? [{ key: 'remote', label: 'Id en la plataforma', children: rda.remote_id }] : []),
                    ]}
                  />
                  {rda.status_reason && rda.status !== 'enviado' && (
                    <Alert
                      type={rda.status === 'rechazado' ? 'error' : 'info'}
                      showIcon
                      message={rda.status_reason}
                      style={{ marginTop: 12 }}
                    />
                  )}
                </Card>
                {rda.versions.length > 1 && (
                  <Card title={`Versiones de este documento (${rda.versions.length})`}>
                    <Typography.Paragraph type="secondary">
                      Cada nota aclaratoria es una versión nueva que reemplaza a la anterior; todas se conservan.
                    </Typography.Paragraph>
                    <RdaVersions versions={rda.versions} currentId={rda.id} timeZone={timeZone} />
                  </Card>
                )}
                {rda.issues.length > 0 && (
                  <Card title={`Problemas señalados por el Ministerio (${rda.issues.length})`}>
                    <RdaIssues issues={rda.issues} />
                  </Card>
                )}
                <Card title="Documento">
                  <RdaDocument bundle={rda.bundle} />
                </Card>
              </Space>
            )}
          </ReadStateView>
        )}
      </div>
    </section>
  );
}
