import { Link } from 'react-router';
import { Card, Col, Empty, Row, Skeleton, Space, Tag, Typography } from 'antd';
import type { Schemas } from '../../contract';

type PatientSummary = Schemas['PatientSummary'];
import { PatientAvatar } from './PatientAvatar';
import { PatientStatusTag } from './PatientStatusTag';
import { COLOMBIA_ID, missingBadges, PATIENT_STATUS_DISPLAY } from './patient-status';
import { countOf } from '@vigia/contract/rules/plural';

/** A search result as a mini card (01 §2): avatar, status colour, age, missing-data badges, insurer for Colombia. */
function PatientMiniCard({ p }: { p: PatientSummary }) {
  const badges = missingBadges(p);
  return (
    <Link to={`/patients/${p.id}`} className="patient-mini-link">
      <Card hoverable size="small" className="patient-mini" style={{ borderLeftColor: PATIENT_STATUS_DISPLAY[p.status]?.color }}>
        <div className="patient-mini-head">
          <PatientAvatar gender={p.gender} size={44} />
          <div className="patient-mini-title">
            <Typography.Text strong className="patient-mini-name">
              {p.full_name}
            </Typography.Text>
            <Typography.Text type="secondary">
              {p.id_type_name} {p.nid} · {countOf(p.age, 'año', 'años')}
            </Typography.Text>
          </div>
          <PatientStatusTag status={p.status} />
        </div>
        {p.country_id === COLOMBIA_ID && (
          <Typography.Text type="secondary" className="patient-mini-insurer">
            {p.eapb_name ?? 'Sin aseguradora'} · {p.regime_name ?? 'Sin Regimen'}
          </Typography.Text>
        )}
        {badges.length > 0 && (
          <Space size={[4, 4]} wrap className="patient-mini-badges">
            {badges.map((b) => (
              <Tag key={b} color="error">
                {b}
              </Tag>
            ))}
          </Space>
        )}
      </Card>
    </Link>
  );
}

export function PatientCardGrid({ rows, loading, empty }: { rows: PatientSummary[]; loading: boolean; empty: string }) {
  if (loading && rows.length === 0) return <Skeleton active />;
  if (rows.length === 0) return <Empty description={empty} />;
  return (
    <Row gutter={[12, 12]}>
      {rows.map((p) => (
        <Col key={p.id} xs={24} md={12} xl={8}>
          <PatientMiniCard p={p} />
        </Col>
      ))}
    </Row>
  );
}

export function PatientSearchResults({ rows, loading, onAdvanced }: { rows: PatientSummary[]; loading: boolean; onAdvanced: () => void }) {
  if (!loading && rows.length === 0) {
    return (
      <Empty description="No se encontraron resultados">
        <Typography.Link onClick={onAdvanced}>Ir a la búsqueda avanzada</Typography.Link>
      </Empty>
    );
  }
  return <PatientCardGrid rows={rows} loading={loading} empty="No se encontraron resultados" />;
}
