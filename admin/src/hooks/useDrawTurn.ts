import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Charts that draw one after the other (issue 52). The Signos tab's cards all get their readings at
 * about the same moment; drawn together, their seven charts were one long task, and the browser
 * painted none of them until the last was done. Taking turns, each chart is painted as soon as it
 * is drawn and the next one starts after that paint: the first chart shows sooner, the last no later.
 * A chart that never says it is drawn (an error in the library) gives its turn up after TURN_LIMIT_MS.
 */
const TURN_LIMIT_MS = 1500;

type Ticket = { start: () => void };
const waiting: Ticket[] = [];
let current: Ticket | null = null;
let limit: ReturnType<typeof setTimeout> | undefined;

function begin(ticket: Ticket) {
  current = ticket;
  clearTimeout(limit);
  limit = setTimeout(() => finish(ticket), TURN_LIMIT_MS);
  ticket.start();
}

function finish(ticket: Ticket) {
  const i = waiting.indexOf(ticket);
  if (i >= 0) waiting.splice(i, 1);
  if (current !== ticket) return;
  current = null;
  clearTimeout(limit);
  // After the next paint: the chart just drawn reaches the screen before the next one starts.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const next = waiting.shift();
      if (next && !current) begin(next);
    }, 0),
  );
}

/**
 * `[turn, drawn]`: `turn` becomes true when this chart may draw (asked once `wanted` is true, and
 * then kept); `drawn` ends its turn. Unmounting ends it too.
 */
export function useDrawTurn(wanted: boolean): [boolean, () => void] {
  const [turn, setTurn] = useState(false);
  const ticket = useRef<Ticket | null>(null);
  useEffect(() => {
    if (!wanted || ticket.current) return;
    const mine: Ticket = { start: () => setTurn(true) };
    ticket.current = mine;
    if (current) waiting.push(mine);
    else begin(mine);
  }, [wanted]);
  useEffect(
    () => () => {
      if (ticket.current) finish(ticket.current);
    },
    [],
  );
  const drawn = useCallback(() => {
    if (ticket.current) finish(ticket.current);
  }, []);
  return [turn, drawn];
}
