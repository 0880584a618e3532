import sprite from "./social-icons.svg?url";

/**
 * Line icons for the footer's social links, from one SVG sprite (a hashed, long-cached file): no icon font, no
 * emoji font, and no path data in the page's JavaScript. A network the sprite does not draw gets a globe.
 */
const DRAWN = new Set(["discord", "telegram", "x"]);

export function SocialIcon({ name }: { name: string }) {
  const key = name.trim().toLowerCase();
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
      <use href={`${sprite}#${DRAWN.has(key) ? key : "link"}`} />
    </svg>
  );
}
