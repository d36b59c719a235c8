import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { basePath, type AnyResource } from './types';

/** Title row of a screen: the title on the left, its buttons on the right (wrapping on phones). */
export function PageHeader({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children?: ReactNode }) {
  return (
    <section className="vigia-page">
      <header className="vigia-page-header">
        <Typography.Title level={1} className="vigia-page-title">
          {title}
        </Typography.Title>
        {extra && <div className="vigia-page-extra">{extra}</div>}
      </header>
      <div className="vigia-page-body">{children}</div>
    </section>
  );
}

/**
 * The title of Refine's create, edit and show pages (pass `goBack={false}` with it): the screen's
 * h1, after a link back to the list. Refine's own back arrow was a button inside a `role=button`
 * that the keyboard could not reach (axe nested-interactive), and its string title left an empty h5.
 */
export function RecordPageTitle({
  resource,
  title,
}: {
  resource: Pick<AnyResource, 'name' | 'path'> & { labels: Pick<AnyResource['labels'], 'list' | 'singular'> };
  title?: string;
}) {
  return (
    <span className="vigia-record-title">
      <Link to={basePath(resource)} className="vigia-record-back">
        <ArrowLeftOutlined aria-hidden /> {resource.labels.list}
      </Link>
      <Typography.Title level={1} className="vigia-page-title">
        {title ?? resource.labels.singular}
      </Typography.Title>
    </span>
  );
}
