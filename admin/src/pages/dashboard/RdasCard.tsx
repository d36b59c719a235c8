import { Link } from 'react-router';
import { Card, Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { FileProtectOutlined } from '@ant-design/icons';
import { useApiQuery } from '../../providers/calls';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import { rdaStatusText, type RdaStatus } from '../../components/rda-status';
import { rdaListPath } from '../../components/rda-filters';

/** The statuses that ask someone to act, first what the platform refused. */
const SHOWN: Array<{ status: RdaStatus; note: string }> = [
  { status: 'rechazado', note: 'La plataforma IHCE los rechazó: revise cada problema y reenvíelos.' },
  { status: 'pendiente', note: 'En cola o esperando un nuevo intento.' },
  { status: 'sin_enviar', note: 'Esperan la configuración de la conexión IHCE.' },
];

const count = new Intl.NumberFormat('es-CO');

/**
 * 'RDA por enviar' (issue 51): how many of the organisation's RDA the platform refused, are waiting
 * to be sent, or are not sent yet, each leading to the RDA list filtered by that status. For whoever
 * reads the list (administrators and clinicians: the page passes `allowed`); a failed read says so,
 * never a 0.
 */
export function RdasCard() {
  const query = useApiQuery('/rdas/summary', { errorNotification: false }).query;
  const summary = query.data?.data;
  const status = useReadState([query], false, 'los RDA por estado');
  return (
    <Card
      title={
        <>
          <FileProtectOutlined /> RDA por enviar al Ministerio
        </>
      }
      extra={<Link to={rdaListPath()}>Ver todos los RDA</Link>}
    >
      <ReadStateView status={status} loading={<Skeleton active paragraph={{ rows: 2 }} />}>
        {summary && (
          <Row gutter={[16, 16]}>
            {SHOWN.map(({ status: s, note }) => (
              <Col xs={24} sm={8} key={s}>
                <Link to={rdaListPath(s)} className="dashboard-rda-link">
                  <Statistic title={rdaStatusText(s)} value={count.format(summary[s])} suffix="RDA" />
                </Link>
                <Typography.Text type="secondary">{note}</Typography.Text>
              </Col>
            ))}
          </Row>
        )}
      </ReadStateView>
    </Card>
  );
}
