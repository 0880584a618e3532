/** Line icons for the footer's social links, drawn here (no icon font, no emoji font needed). */
const glyphs: Record<string, JSX.Element> = {
  discord: (
    <>
      <path d="M7.5 6.5C9 5.8 10.5 5.5 12 5.5s3 .3 4.5 1c1.6 2.6 2.4 5.4 2.5 8.6-1.4 1.2-2.9 1.9-4.3 2.3l-1-1.7a12 12 0 0 1-3.4 0l-1 1.7C7.9 17 6.4 16.3 5 15.1c.1-3.2.9-6 2.5-8.6z" />
      <circle cx="9.6" cy="12.2" r="1.2" fill="currentColor" stroke="none" />
      <circle cx="14.4" cy="12.2" r="1.2" fill="currentColor" stroke="none" />
    </>
  ),
  telegram: (
    <>
      <path d="M20.5 4.5 3.5 11.2l5.3 1.9 1.9 5.9 3-3.6 4.6 3.4 2.2-14.3z" />
      <path d="m8.8 13.1 8.4-5.9-6.5 7.2" />
    </>
  ),
  x: <path d="m5 4.5 14 15M19 4.5l-14 15" />,
};

const fallbackGlyph = (
  <>
    <circle cx="12" cy="12" r="8" />
    <path d="M4 12h16M12 4c2.2 2.3 3.2 5 3.2 8s-1 5.7-3.2 8c-2.2-2.3-3.2-5-3.2-8s1-5.7 3.2-8z" />
  </>
);

export function SocialIcon({ name }: { name: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5 shrink-0"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {glyphs[name.trim().toLowerCase()] ?? fallbackGlyph}
    </svg>
  );
}
