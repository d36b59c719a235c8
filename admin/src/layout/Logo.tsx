/** Vigía's mark: an eye whose pupil is a heartbeat line. */
export function VigiaMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0e7c7b" />
      <path
        d="M8 32c6-10 14-16 24-16s18 6 24 16c-6 10-14 16-24 16S14 42 8 32z"
        fill="none"
        stroke="#fff"
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <path d="M14 32h9l4-8 6 16 4-8h13" fill="none" stroke="#7ee0c9" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function VigiaLogo({ size = 32, light = false, caption }: { size?: number; light?: boolean; caption?: string }) {
  return (
    <span className={`vigia-logo${light ? ' is-light' : ''}`}>
      <VigiaMark size={size} />
      <span className="vigia-logo-text">
        <span className="vigia-logo-name">Vigía</span>
        {caption && <span className="vigia-logo-caption">{caption}</span>}
      </span>
    </span>
  );
}
