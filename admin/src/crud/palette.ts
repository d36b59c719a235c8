/**
 * Screen colours of the contract's tag colours (Material palette, as the existing product shows
 * them), with a text colour of at least 4.5:1 on the chip (issue 19, WCAG 1.4.3; theme.test.ts
 * measures them): red and blue take Material's 700 shade under white text, light green dark text.
 */
export const TAG_COLORS: Record<string, { background: string; text: string }> = {
  black: { background: '#212121', text: '#ffffff' },
  red: { background: '#d32f2f', text: '#ffffff' },
  pink: { background: '#d81b60', text: '#ffffff' },
  purple: { background: '#8e24aa', text: '#ffffff' },
  indigo: { background: '#3949ab', text: '#ffffff' },
  blue: { background: '#1976d2', text: '#ffffff' },
  'light-green': { background: '#7cb342', text: '#212121' },
  amber: { background: '#ffb300', text: '#212121' },
  orange: { background: '#fb8c00', text: '#212121' },
  'blue-grey': { background: '#546e7a', text: '#ffffff' },
};

export const FALLBACK_COLOR = { background: '#e0e0e0', text: '#212121' };

export function tagColor(color: unknown): { background: string; text: string } {
  return (typeof color === 'string' && TAG_COLORS[color]) || FALLBACK_COLOR;
}
