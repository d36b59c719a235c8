import type { ReactNode } from 'react';

/**
 * antd's List.Item.Meta, drawn by the same classes, with its title in a div: antd writes the title
 * as an h4, which under a screen's h1 skips two heading levels (axe heading-order), and an item of a
 * list (a session, an entry of an alert's history) is not a section of the page.
 */
export function ItemMeta({ avatar, title, description }: { avatar?: ReactNode; title?: ReactNode; description?: ReactNode }) {
  return (
    <div className="ant-list-item-meta">
      {avatar && <div className="ant-list-item-meta-avatar">{avatar}</div>}
      <div className="ant-list-item-meta-content">
        {title && <div className="ant-list-item-meta-title">{title}</div>}
        {description && <div className="ant-list-item-meta-description">{description}</div>}
      </div>
    </div>
  );
}
