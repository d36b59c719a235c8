import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './clamped-text.css';

/**
 * A text cut to `rows` lines by CSS (line-clamp), with 'Ver más' / 'Ver menos' when it is longer
 * (issue 52). antd's Typography `ellipsis` with `expandable` measured the text inside React's
 * commit (isEleEllipsis: a forced layout of the whole page, 23 ms of the patient page's warm load
 * before its charts, in a traced minified build). Here the browser cuts the text, and whether it
 * was cut is read in a ResizeObserver callback, after the frame's own layout: nothing forced.
 */
export function ClampedText({ rows, className, children }: { rows: number; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const [expanded, setExpanded] = useState(false);
  const [cut, setCut] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || expanded || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setCut(element.scrollHeight > element.clientHeight + 1));
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, children]);
  return (
    <div className={className}>
      <div id={id} ref={ref} className={expanded ? 'clamped-text' : 'clamped-text clamped-text-cut'} style={{ WebkitLineClamp: rows }}>
        {children}
      </div>
      {(cut || expanded) && (
        <button
          type="button"
          className="clamped-text-toggle"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? 'Ver menos' : 'Ver más'}
        </button>
      )}
    </div>
  );
}
