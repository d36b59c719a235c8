import { useEffect, useState, type RefObject } from 'react';

/**
 * True once the element has come within `margin` of the viewport, and from then on (issue 52): the
 * Signos tab draws a chart when its card nears the screen instead of drawing all seven at once, so
 * the first charts are not kept waiting behind the ones below the fold on the main thread. Without
 * IntersectionObserver (never in the supported browsers) everything counts as near.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '100% 0px'): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
