import type { ReactNode } from 'react';
import { Typography } from 'antd';

/** Title row of a screen: the title on the left, its buttons on the right (wrapping on phones). */
export function PageHeader({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children?: ReactNode }) {
  return (
    <section className="vigia-page">
      <header className="vigia-page-header">
        <Typography.Title level={3} className="vigia-page-title">
          {title}
        </Typography.Title>
        {extra && <div className="vigia-page-extra">{extra}</div>}
      </header>
      <div className="vigia-page-body">{children}</div>
    </section>
  );
}
