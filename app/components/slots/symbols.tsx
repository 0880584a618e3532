import type { ReactNode } from "react";
import type { SlotSymbolId } from "../../../contract/slots";

/*
 * The 12 reel symbols as one inline SVG sprite, drawn here rather than taken from an emoji font: they look the
 * same on every device, including those without colour emoji, and each cell is a short <use>.
 */

const DRAWINGS: Record<SlotSymbolId, ReactNode> = {
  cherry: (
    <>
      <path d="M11 17 Q13 9 21 4 M22 18 Q22 10 21 4" stroke="#15803d" strokeWidth="2" fill="none" />
      <circle cx="10.5" cy="22" r="6" fill="#dc2626" />
      <circle cx="22" cy="23" r="6" fill="#b91c1c" />
    </>
  ),
  lemon: (
    <>
      <ellipse cx="16" cy="16" rx="12" ry="9" fill="#facc15" />
      <circle cx="4.5" cy="16" r="2" fill="#eab308" />
      <circle cx="27.5" cy="16" r="2" fill="#eab308" />
    </>
  ),
  orange: (
    <>
      <circle cx="16" cy="18" r="11" fill="#f97316" />
      <path d="M16 7 Q20 2 25 4 Q21 9 16 7Z" fill="#16a34a" />
    </>
  ),
  peach: (
    <>
      <circle cx="16" cy="18" r="11" fill="#fda4af" />
      <path d="M16 8 Q12 18 16 29" stroke="#e11d48" strokeWidth="1.5" fill="none" />
      <path d="M16 7 Q11 2 7 5 Q11 9 16 7Z" fill="#16a34a" />
    </>
  ),
  grapes: (
    <g fill="#7c3aed">
      <circle cx="10" cy="10" r="4.5" />
      <circle cx="19" cy="10" r="4.5" />
      <circle cx="14.5" cy="17" r="4.5" />
      <circle cx="23" cy="16" r="4" />
      <circle cx="10" cy="22" r="4" />
      <circle cx="18" cy="24" r="4.5" />
    </g>
  ),
  melon: (
    <>
      <path d="M3 10 A13 13 0 0 0 29 10 Z" fill="#ef4444" stroke="#16a34a" strokeWidth="3" />
      <g fill="#111827">
        <ellipse cx="11" cy="14" rx="1" ry="1.6" />
        <ellipse cx="16" cy="17" rx="1" ry="1.6" />
        <ellipse cx="21" cy="14" rx="1" ry="1.6" />
      </g>
    </>
  ),
  bell: (
    <>
      <path d="M16 4 C9 4 8 11 8 17 L5 24 H27 L24 17 C24 11 23 4 16 4Z" fill="#f59e0b" />
      <circle cx="16" cy="26.5" r="2.5" fill="#b45309" />
    </>
  ),
  clover: (
    <>
      <path d="M16 16 Q18 24 23 29" stroke="#166534" strokeWidth="2" fill="none" />
      <g fill="#16a34a">
        <circle cx="11.5" cy="11.5" r="5" />
        <circle cx="20.5" cy="11.5" r="5" />
        <circle cx="11.5" cy="20.5" r="5" />
        <circle cx="20.5" cy="20.5" r="5" />
      </g>
    </>
  ),
  heart: <path d="M16 28 C4 19 3 12 7 8 C10 5 14 6 16 10 C18 6 22 5 25 8 C29 12 28 19 16 28Z" fill="#e11d48" />,
  star: (
    <path
      d="M16 3 L19.8 11.8 L29 12.5 L22 18.6 L24.2 28 L16 23 L7.8 28 L10 18.6 L3 12.5 L12.2 11.8Z"
      fill="#facc15"
      stroke="#ca8a04"
    />
  ),
  diamond: (
    <>
      <path d="M8 5 H24 L30 12 L16 29 L2 12Z" fill="#7dd3fc" stroke="#0284c7" />
      <path d="M2 12 H30 M8 5 L12 12 L16 29 L20 12 L24 5" stroke="#0284c7" fill="none" />
    </>
  ),
  seven: (
    <path d="M6 5 H27 V9 Q18 17 16 29 H10 Q12 17 20 10 H6Z" fill="#dc2626" stroke="#7f1d1d" strokeLinejoin="round" />
  ),
};

/** Rendered once on a page that shows symbols; SlotSymbolIcon refers to it. */
export function SlotSymbolSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      <defs>
        {Object.entries(DRAWINGS).map(([id, drawing]) => (
          <symbol key={id} id={`slot-${id}`} viewBox="0 0 32 32">
            {drawing}
          </symbol>
        ))}
      </defs>
    </svg>
  );
}

export function SlotSymbolIcon({ id, className }: { id: SlotSymbolId; className: string }) {
  return (
    <svg aria-hidden="true" className={className} viewBox="0 0 32 32">
      <use href={`#slot-${id}`} />
    </svg>
  );
}

/** The dashboard's slot-machine icon. */
export function SlotMachineIcon({ className }: { className: string }) {
  return (
    <svg aria-hidden="true" className={className} viewBox="0 0 32 32">
      <rect x="3" y="6" width="22" height="22" rx="3" fill="#dc2626" />
      <rect x="5" y="3" width="18" height="5" rx="2" fill="#f59e0b" />
      <rect x="6" y="11" width="16" height="9" rx="1.5" fill="#fff" />
      <path d="M11.3 11 V20 M16.7 11 V20" stroke="#dc2626" strokeWidth="1" />
      <path
        d="M7.5 17.5 L9 13.5 H10 M13 17.5 L14.5 13.5 H15.5 M18.5 17.5 L20 13.5 H21"
        stroke="#111827"
        strokeWidth="1.3"
        fill="none"
      />
      <rect x="8" y="23" width="12" height="2.5" rx="1" fill="#7f1d1d" />
      <path d="M25 14 H28 V6" stroke="#475569" strokeWidth="2" fill="none" />
      <circle cx="28" cy="5" r="2.5" fill="#f59e0b" />
    </svg>
  );
}
