import type { ReactNode } from 'react';
import { Tag } from 'antd';
import { tagColor } from './palette';

/** A tag's colour chip. Its own module: pages that show chips (the patient page) need none of the contract's schema code. */
export function ColorChip({ color, children }: { color: unknown; children: ReactNode }) {
  const { background, text } = tagColor(color);
  return (
    <Tag className="vigia-chip" style={{ background, color: text, borderColor: background }}>
      {children}
    </Tag>
  );
}
