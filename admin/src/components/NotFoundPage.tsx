import { Card, Result, Typography } from 'antd';
import { LinkButton } from '../layout/LinkButton';
import { usePageTitle } from '../layout/usePageTitle';

/** /404notfound and any unknown path (03 §2). The `reload` flag of the old product is accepted and ignored. */
export default function NotFoundPage() {
  usePageTitle('Página no encontrada');
  return (
    <Card>
      <Result
        status="404"
        title={
          <Typography.Title level={1} className="vigia-page-title">
            Error 404
          </Typography.Title>
        }
        subTitle="Página no encontrada"
        extra={
          <LinkButton type="primary" to="/dashboard">
            Ir al Dashboard
          </LinkButton>
        }
      />
    </Card>
  );
}
