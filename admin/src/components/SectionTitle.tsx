import { Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/**
 * A section's heading inside a screen: an h2 under the screen's h1 (axe heading-order: levels go
 * down one at a time), at the size of antd's h5 that these headings were drawn with.
 */
export function SectionTitle({ children, className, style }: { children: ReactNode; className?: string; style?: CSSProperties }) {
  return (
    <Typography.Title level={2} className={className ? `vigia-section-title ${className}` : 'vigia-section-title'} style={style}>
      {children}
    </Typography.Title>
  );
}
