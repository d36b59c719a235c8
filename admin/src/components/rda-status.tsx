import { Link } from 'react-router';
import { List, Space, Typography } from 'antd';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../contract';
import { contractDoc } from '../crud/contract-doc';
import { StatusChip } from '../crud/renderers';
import { enumLabel, objectSchema } from '../crud/schema-rules';
import type { Tone } from '../crud/types';

/**
 * An RDA's sending status and kind as the staff app shows them (issue 51), in the RDA list, its
 * detail and the patient's 'RDA' tab: the contract's x-label and one colour per status.
 */

export type Rda = Schemas['Rda'];
export type RdaStatus = Schemas['RdaStatus'];
export type RdaKind = Schemas['RdaKind'];

const STATUS_TONES: Record<RdaStatus, Tone> = {
  sin_enviar: 'default',
  pendiente: 'processing',
  enviado: 'success',
  rechazado: 'error',
  corregido: 'warning',
};

export const RDA_STATUSES = Object.keys(STATUS_TONES) as RdaStatus[];
export const RDA_KINDS: RdaKind[] = ['consulta', 'paciente'];

export function rdaStatusText(status: RdaStatus): string {
  return enumLabel(objectSchema(contractDoc, 'RdaStatus'), status) ?? status;
}

/** 'RDA de consulta externa' / 'RDA de paciente'. */
export function rdaKindText(kind: RdaKind): string {
  return enumLabel(objectSchema(contractDoc, 'RdaKind'), kind) ?? kind;
}

/** The status as a coloured tag with its word (the colour is never the only sign). */
export function RdaStatusTag({ status }: { status: RdaStatus }) {
  return <StatusChip value={{ text: rdaStatusText(status), tone: STATUS_TONES[status] }} />;
}

/** The last error in Spanish: the first issue the Ministry named, else why it is not sent yet. */
export function rdaLastError(rda: Pick<Rda, 'status' | 'status_reason' | 'issues'>): string | null {
  if (rda.status === 'enviado') return null;
  return rda.issues[0]?.message ?? rda.status_reason ?? null;
}

/** 'Reenviar' as the API allows it (resendRda): never for a document the platform holds; administrators only. */
export { canResendRda, rdaWaitsForEarlier } from '@vigia/contract/rules/rda';

/** The URL of one document's detail. */
export const rdaShowPath = (id: number) => `/rdas/show/${id}`;

/** 'Versión 2 · nota aclaratoria' / 'Versión 1': what a version is, in words. */
export function rdaVersionText(r: Pick<Rda, 'version' | 'replaces_id'>): string {
  return r.replaces_id != null ? `Versión ${r.version} · nota aclaratoria` : `Versión ${r.version}`;
}

/**
 * The history of one document (issue 51): each version, the original first, with its status, when
 * it was written and, for a nota aclaratoria, the 'Motivo de la aclaración'. `currentId` is the
 * version on screen (not a link); the others link to their own detail.
 */
export function RdaVersions({ versions, currentId, timeZone }: { versions: Rda[]; currentId?: number; timeZone: string }) {
  return (
    <List
      className="rda-versions"
      size="small"
      dataSource={versions}
      rowKey={(v) => v.id}
      renderItem={(v) => (
        <List.Item>
          <Space direction="vertical" size={2}>
            <Space wrap size={8}>
              {v.id === currentId ? (
                <Typography.Text strong>{rdaVersionText(v)} (esta)</Typography.Text>
              ) : (
                <Link to={rdaShowPath(v.id)}>{rdaVersionText(v)}</Link>
              )}
              <RdaStatusTag status={v.status} />
              <Typography.Text type="secondary">Escrita el {formatWhen(v.created_at, timeZone)}</Typography.Text>
            </Space>
            {v.correction_reason && <Typography.Text>Motivo de la aclaración: {v.correction_reason}</Typography.Text>}
            {v.status !== 'enviado' && v.status_reason && <Typography.Text type="secondary">{v.status_reason}</Typography.Text>}
          </Space>
        </List.Item>
      )}
    />
  );
}
