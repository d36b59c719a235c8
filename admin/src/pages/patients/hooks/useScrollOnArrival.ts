import { useEffect, useRef } from 'react';

/**
 * Arriving with a link that names a part of the page (`?tab=`, `?chart=`), that part is what the
 * user came for: scrolled into view once it is there, and again while the cards above it settle
 * (the encounters card loads its own chunk and pushes the rest down), until the user scrolls or
 * 3 s pass. With `focus`, it also takes the focus (without scrolling again), so a keyboard or a
 * screen reader starts there.
 */
export function useScrollOnArrival(
  target: React.RefObject<HTMLElement | null>,
  arrived: boolean,
  ready: boolean,
  { focus = false }: { focus?: boolean } = {},
) {
  const wanted = useRef(arrived);
  useEffect(() => {
    const el = target.current;
    if (!ready || !wanted.current || !el) return;
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    const scroll = () => {
      if (!stopped) el.scrollIntoView({ block: 'start' });
    };
    const userEvents = ['wheel', 'touchmove', 'keydown', 'mousedown'] as const;
    for (const e of userEvents) window.addEventListener(e, stop, { passive: true });
    if (focus) el.focus({ preventScroll: true });
    // The first scroll is the observer's first call, after the frame's own layout: called here it
    // made the browser lay the whole page out in the middle of React's commit (22 ms of the patient
    // page's warm load opened on Signos, before its charts; issue 52).
    const observer = new ResizeObserver(scroll);
    observer.observe(document.body);
    const timer = setTimeout(() => {
      wanted.current = false;
      observer.disconnect();
    }, 3000);
    return () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const e of userEvents) window.removeEventListener(e, stop);
    };
  }, [target, ready, focus]);
}
