import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Card, Descriptions, Empty, Progress, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { AlertOutlined, ClockCircleOutlined, EditOutlined } from '@ant-design/icons';
import { ColorChip } from '../../crud/ColorChip';
import { PatientAvatar } from './PatientAvatar';
import { PatientStatusTag } from './PatientStatusTag';
import { COLOMBIA_ID, INCOMPLETE_TEXT } from './patient-status';
import type { Patient } from './types';
import { formatTime } from '@vigia/contract/rules/dates';
import { FORBIDDEN_REASON } from '../../providers/access';
import { countOf } from '@vigia/contract/rules/plural';
import { ReadFailedAlert, useReadState, type Read } from '../../ui/ReadState';
import { useCodeListing } from '../../hooks/listings';
import { ClampedText } from '../../ui/ClampedText';

export type CardDialog = 'basic' | 'history' | 'contact' | 'tags' | 'inactivate' | 'deceased';

const dmy = (iso: string) => iso.split('-').reverse().join('/');

function EditButton({ allowed, onClick, label }: { allowed: boolean; onClick: () => void; label: string }) {
  return (
    <Tooltip title={allowed ? label : 'Su rol o el estado del paciente no permiten este cambio'}>
      <Button type="text" icon={<EditOutlined />} disabled={!allowed} onClick={onClick} aria-label={label} />
    </Tooltip>
  );
}

/** The patient's local time, when their zone differs from the user's (01 §2). */
function ClockChip({ timeZone }: { timeZone: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(t);
  }, []);
  const time = formatTime(now, timeZone);
  return (
    <Tooltip title={`Zona horaria del paciente: ${timeZone}`}>
      <Tag icon={<ClockCircleOutlined />} color="geekblue" className="patient-clock">
        Hora del paciente: {time}
      </Tag>
    </Tooltip>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="patient-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

const NOT_RECORDED = 'Sin registrar';
const missing = <Typography.Text type="danger">{INCOMPLETE_TEXT}</Typography.Text>;
const orMissing = (v: ReactNode | null | undefined) => (v === null || v === undefined || v === '' ? missing : v);

/**
 * Cards 1 to 5 come with the patient's record (`read`): a refresh of it that failed keeps what they
 * show, marked with when it was read and 'Reintentar' (P212, issue 50), and never turns an empty
 * history or tag list into 'Sin…'.
 */

/** Card 1: basic data, status badge and toggle, clock chip and avatar by gender. */
export function BasicDataCard({
  patient,
  read,
  userTimeZone,
  open,
  onToggleStatus,
}: {
  patient: Patient;
  read: Read;
  userTimeZone?: string;
  open: (d: CardDialog) => void;
  onToggleStatus: (on: boolean) => void;
}) {
  const p = patient;
  const status = useReadState([read], false, 'los datos básicos');
  const perms = p.permissions;
  const deceased = p.status === 3;
  const disabilityCodes = p.disabilities ?? [];
  const disabilityOptions = useCodeListing('disabilities', disabilityCodes.length > 0);
  const disabilityNames = disabilityCodes.map((code) => disabilityOptions.find((o) => o.value === code)?.label ?? code);
  return (
    <Card
      className="patient-card"
      title="Datos básicos"
      extra={<EditButton allowed={perms.edit} onClick={() => open('basic')} label="Editar datos básicos" />}
    >
      <ReadFailedAlert status={status} />
      <div className="patient-identity">
        <PatientAvatar gender={p.gender} size={64} />
        <div className="patient-identity-text">
          <Typography.Title level={1} className="patient-name">
            {p.full_name}
          </Typography.Title>
          <Space size={[8, 8]} wrap>
            <PatientStatusTag status={p.status} />
            {!deceased && (
              <Tooltip title={perms.change_status ? (p.status === 0 ? 'Activar paciente' : 'Inactivar paciente') : FORBIDDEN_REASON}>
                <Switch
                  checked={p.status !== 0}
                  disabled={!perms.change_status}
                  onChange={onToggleStatus}
                  aria-label="Estado del paciente"
                />
              </Tooltip>
            )}
            {userTimeZone && userTimeZone !== p.time_zone && <ClockChip timeZone={p.time_zone} />}
          </Space>
          {p.status === 2 && (
            <Typography.Text type="danger" className="patient-status-hint">
              Complete la información de contacto para activar al paciente.
            </Typography.Text>
          )}
        </div>
      </div>
      <dl className="patient-facts">
        <Fact label="Documento">
          {p.id_type_name} {p.nid}
        </Fact>
        <Fact label="País">{p.country_name}</Fact>
        <Fact label="Género">{p.gender_name}</Fact>
        <Fact label="Edad">{countOf(p.age, 'año', 'años')}</Fact>
        <Fact label="Fecha de nacimiento">{dmy(p.birth_date)}</Fact>
        <Fact label="Tipo de sangre y RH">
          {p.blood_type_name ? `${p.blood_type_name} ${p.rh_factor_name ?? ''}`.trim() : 'Sin registrar'}
        </Fact>
        {p.country_id === COLOMBIA_ID && <Fact label="Aseguradora">{p.eapb_name ?? 'Sin registrar'}</Fact>}
        {p.country_id === COLOMBIA_ID && <Fact label="Régimen">{p.regime_name ?? 'Sin Regimen'}</Fact>}
        {/* Issue 51: what the RDA (Resolución 1888) needs of the patient. */}
        <Fact label="Sexo biológico">{p.biological_sex_name ?? NOT_RECORDED}</Fact>
        <Fact label="Identidad de género">{p.gender_identity_name ?? NOT_RECORDED}</Fact>
        <Fact label="Zona de residencia">{p.residence_zone_name ?? NOT_RECORDED}</Fact>
        <Fact label="Nacionalidad">{p.nationality_name ?? NOT_RECORDED}</Fact>
        <Fact label="Etnia">{p.ethnicity_name ? [p.ethnicity_name, p.ethnic_community].filter(Boolean).join(' · ') : NOT_RECORDED}</Fact>
        <Fact label="Discapacidad">{disabilityNames.length ? disabilityNames.join(', ') : NOT_RECORDED}</Fact>
      </dl>
      {!deceased && (
        <div className="patient-card-footer">
          <Tooltip title={perms.set_deceased ? undefined : FORBIDDEN_REASON}>
            <Button danger size="small" disabled={!perms.set_deceased} onClick={() => open('deceased')}>
              Declarar fallecimiento
            </Button>
          </Tooltip>
        </div>
      )}
    </Card>
  );
}

/** Card 2: clinical-history summary. */
export function ClinicHistoryCard({ patient, read, open }: { patient: Patient; read: Read; open: (d: CardDialog) => void }) {
  // A refresh that failed keeps the summary it had, marked; without one it is never 'Sin resumen' (P212).
  const status = useReadState([read], !patient.clinic_history, 'la historia clínica');
  return (
    <Card
      className="patient-card"
      title="Historia clínica"
      extra={<EditButton allowed={patient.permissions.add_tags} onClick={() => open('history')} label="Editar historia clínica" />}
    >
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' ? null : patient.clinic_history ? (
        <ClampedText className="patient-history" rows={6}>
          {patient.clinic_history}
        </ClampedText>
      ) : (
        <Typography.Text type="secondary">Sin resumen de historia clínica.</Typography.Text>
      )}
    </Card>
  );
}

type PrescriptionItem = {
  id?: number;
  order_id?: number;
  medication?: string;
  frecuency?: string;
  progress?: number;
  clinical_element?: string | number;
  clinical_element_name?: string;
  days?: number[];
};
const WEEKDAYS = ['D', 'L', 'M', 'X', 'J', 'V', 'S'];

/** Card 3: current prescription; each line opens its order. */
export function PrescriptionCard({ patient, read }: { patient: Patient; read: Read }) {
  const meds = patient.medications_prescription as PrescriptionItem[];
  const vitals = patient.vitals_prescription as PrescriptionItem[];
  // The prescription comes with the record: a refresh of it that failed is never 'Sin órdenes vigentes' (P212).
  const status = useReadState([read], meds.length === 0 && vitals.length === 0, 'la prescripción');
  const orderLink = (item: PrescriptionItem) => `/patients/${patient.id}/orders/${item.order_id ?? item.id}`;
  return (
    <Card className="patient-card" title="Prescripción actual">
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' ? null : meds.length === 0 && vitals.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin órdenes vigentes" />
      ) : (
        <div className="patient-prescription">
          {meds.length > 0 && <Typography.Text strong>Medicamentos</Typography.Text>}
          {meds.map((m, i) => (
            <Link key={`m${m.id ?? i}`} to={orderLink(m)} className="patient-prescription-line">
              <span>
                {m.medication} <Typography.Text type="secondary">{m.frecuency}</Typography.Text>
              </span>
              <Progress percent={Math.round(m.progress ?? 0)} size="small" aria-label={`Avance de ${m.medication}`} />
            </Link>
          ))}
          {vitals.length > 0 && <Typography.Text strong>Signos vitales</Typography.Text>}
          {vitals.map((v, i) => (
            <Link key={`v${v.id ?? i}`} to={orderLink(v)} className="patient-prescription-line">
              <span>
                {v.clinical_element_name ?? v.clinical_element}
                <span className="patient-weekdays" aria-label="Días de la semana">
                  {WEEKDAYS.map((d, day) => (
                    <span key={day} className={v.days?.includes(day) ? 'is-on' : ''}>
                      {d}
                    </span>
                  ))}
                </span>
              </span>
              <Progress
                percent={Math.round(v.progress ?? 0)}
                size="small"
                aria-label={`Avance de ${v.clinical_element_name ?? v.clinical_element}`}
              />
            </Link>
          ))}
        </div>
      )}
    </Card>
  );
}

/** Card 4: contact data; each missing value says 'Dato Incompleto'. */
export function ContactCard({ patient, read, open }: { patient: Patient; read: Read; open: (d: CardDialog) => void }) {
  const p = patient;
  const status = useReadState([read], false, 'la información de contacto');
  return (
    <Card
      className="patient-card"
      title="Información de contacto"
      extra={<EditButton allowed={p.permissions.edit} onClick={() => open('contact')} label="Editar información de contacto" />}
    >
      <ReadFailedAlert status={status} />
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Dirección">{orMissing(p.address)}</Descriptions.Item>
        <Descriptions.Item label="Barrio">{orMissing(p.neighborhood)}</Descriptions.Item>
        <Descriptions.Item label="Ciudad">{orMissing(p.city_name)}</Descriptions.Item>
        <Descriptions.Item label="Teléfono">{p.cellphone && p.prefix ? `${p.prefix} ${p.cellphone}` : missing}</Descriptions.Item>
        <Descriptions.Item label="Correo electrónico">{orMissing(p.email)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** Card 5: tags. */
export function TagsCard({ patient, read, open }: { patient: Patient; read: Read; open: (d: CardDialog) => void }) {
  const status = useReadState([read], patient.tags.length === 0, 'las etiquetas');
  return (
    <Card
      className="patient-card"
      title="Etiquetas"
      extra={<EditButton allowed={patient.permissions.add_tags} onClick={() => open('tags')} label="Editar etiquetas" />}
    >
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' ? null : patient.tags.length ? (
        <Space size={[4, 8]} wrap>
          {patient.tags.map((t) => (
            <ColorChip key={t.id} color={t.color}>
              {t.name}
            </ColorChip>
          ))}
        </Space>
      ) : (
        <Typography.Text type="secondary">Sin etiquetas.</Typography.Text>
      )}
    </Card>
  );
}

/** Card 6: open alerts; clicking goes to the Alertas tab. */
export function AlertsCountCard({ patient, onOpen }: { patient: Patient; onOpen?: () => void }) {
  const n = patient.active_alerts_count;
  return (
    <Card
      className={`patient-card patient-alerts${n ? ' has-alerts' : ''}`}
      hoverable={!!onOpen}
      onClick={onOpen}
      role={onOpen ? 'button' : undefined}
      tabIndex={onOpen ? 0 : undefined}
      onKeyDown={(e) => onOpen && (e.key === 'Enter' || e.key === ' ') && onOpen()}
    >
      <AlertOutlined className="patient-alerts-icon" aria-hidden />
      <div>
        <div className="patient-alerts-count">{n}</div>
        <Typography.Text type="secondary">{n === 1 ? 'Alerta activa' : 'Alertas activas'}</Typography.Text>
      </div>
    </Card>
  );
}
