import { type DemoMotif, type Palette, drawMotif } from "./motifs";

/*
 * A demo product's picture as SVG (ADR 043): the product's colours, its name as a wordmark with the plan
 * beneath, and its own illustration, at the shop's 16:9 (640 × 360, the widest stored width).
 */

export type DemoArt = {
  motif: DemoMotif;
  /** Highlights of the illustration and the wordmark's mark. */
  accent: string;
};

type TileProduct = { title: string; colour: string; art: DemoArt };

const WIDTH = 640;
const HEIGHT = 360;
/** The wordmark keeps clear of the illustration, which starts at x = 340. */
const WORDMARK_ROOM = 280;

/** Mixes two #rrggbb colours: 0 is a, 1 is b. */
function mix(a: string, b: string, amount: number): string {
  const channel = (hex: string, index: number) => parseInt(hex.slice(1 + index * 2, 3 + index * 2), 16);
  const mixed = [0, 1, 2].map((index) =>
    Math.round(channel(a, index) * (1 - amount) + channel(b, index) * amount)
      .toString(16)
      .padStart(2, "0"),
  );
  return `#${mixed.join("")}`;
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Bold sans-serif glyphs average about 0.66 em: long names get a smaller size so they fit their room. */
const wordmarkSize = (text: string) => Math.min(46, Math.floor(WORDMARK_ROOM / (0.66 * text.length)));

export function demoPictureSvg(product: TileProduct): string {
  const [brand, ...plan] = product.title.split(" ");
  const palette: Palette = {
    base: product.colour,
    dark: mix(product.colour, "#0b1020", 0.45),
    accent: product.art.accent,
    deep: mix(product.colour, "#0b1020", 0.8),
  };
  const size = wordmarkSize(brand);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">`,
    `<defs>`,
    `<linearGradient id="background" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(product.colour, "#ffffff", 0.08)}"/><stop offset="1" stop-color="${palette.dark}"/></linearGradient>`,
    `<radialGradient id="glow" cx=".74" cy=".5" r=".5"><stop offset="0" stop-color="#fff" stop-opacity=".22"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.accent}"/><stop offset="1" stop-color="${palette.base}"/></linearGradient>`,
    `</defs>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#background)"/>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#glow)"/>`,
    `<circle cx="600" cy="-20" r="120" fill="#fff" fill-opacity=".06"/><circle cx="-30" cy="380" r="140" fill="#000" fill-opacity=".08"/>`,
    `<g transform="translate(340 40)">${drawMotif(product.art.motif, palette)}</g>`,
    `<rect x="40" y="${196 - size - 30}" width="36" height="8" rx="4" fill="${palette.accent}"/>`,
    `<text x="38" y="196" font-size="${size}" font-weight="700" fill="#fff" letter-spacing="-1">${escapeXml(brand)}</text>`,
    plan.length > 0
      ? `<text x="40" y="236" font-size="22" fill="#fff" fill-opacity=".88">${escapeXml(plan.join(" "))}</text>`
      : "",
    `</svg>`,
  ].join("");
}
