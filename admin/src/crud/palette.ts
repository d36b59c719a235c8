/**
 * Screen colours of the contract's tag colours (Material palette, as the existing product shows
 * them), with a text colour that keeps the chip readable.
 */
const TAG_COLORS: Record<string, { background: string; text: string }> = {
  black: { background: '#212121', text: '#ffffff' },
  red: { background: '#e53935', text: '#ffffff' },
  pink: { background: '#d81b60', text: '#ffffff' },
  purple: { background: '#8e24aa', text: '#ffffff' },
  indigo: { background: '#3949ab', text: '#ffffff' },
  blue: { background: '#1e88e5', text: '#ffffff' },
  'light-green': { background: '#7cb342', text: '#ffffff' },
  amber: { background: '#ffb300', text: '#212121' },
  orange: { background: '#fb8c00', text: '#212121' },
  'blue-grey': { background: '#546e7a', text: '#ffffff' },
};

const FALLBACK_COLOR = { background: '#e0e0e0', text: '#212121' };

export function tagColor(color: unknown): { background: string; text: string } {
  return (typeof color === 'string' && TAG_COLORS[color]) || FALLBACK_COLOR;
}
