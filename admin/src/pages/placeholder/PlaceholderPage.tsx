import { Card, Result, Typography } from 'antd';
import { LinkButton } from '../../layout/LinkButton';
import { ToolOutlined } from '@ant-design/icons';
import { usePageTitle } from '../../layout/usePageTitle';

const PLACEHOLDER_TEXT = 'Esta sección estará disponible próximamente.';

/** One shared page for the screens not built yet; each issue replaces its route. */
export default function PlaceholderPage({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <Card>
      <Result
        icon={<ToolOutlined style={{ color: '#0e7c7b' }} />}
        title={
          <Typography.Title level={1} className="vigia-page-title">
            {title}
          </Typography.Title>
        }
        subTitle={PLACEHOLDER_TEXT}
        extra={
          <LinkButton type="primary" to="/dashboard">
            Volver al Dashboard
          </LinkButton>
        }
      />
    </Card>
  );
}
