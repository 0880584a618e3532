/*
 * The illustrations of the demo's product pictures (ADR 043): one per product, drawn for it, in a 280 × 280 box.
 * Only invented shapes: no real product, brand or logo. Each draws in its product's palette.
 */

export type Palette = {
  /** The product's colour, the picture's background. */
  base: string;
  /** A darker shade of it. */
  dark: string;
  /** Highlights that stand out on the background. */
  accent: string;
  /** Near black with a hint of the base, for screens and outlines. */
  deep: string;
};

type Draw = (p: Palette) => string;

const W = "#fff";

/** A rounded label, centred on x. */
const chip = (x: number, y: number, width: number, text: string, fill: string, ink: string, size = 18) =>
  `<rect x="${x - width / 2}" y="${y}" width="${width}" height="${size + 14}" rx="${(size + 14) / 2}" fill="${fill}"/>` +
  `<text x="${x}" y="${y + size + 2}" text-anchor="middle" font-size="${size}" font-weight="700" fill="${ink}">${text}</text>`;

const play = (cx: number, cy: number, r: number, ring: string, arrow: string) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${ring}"/>` +
  `<path d="M${cx - r * 0.3} ${cy - r * 0.45}L${cx + r * 0.5} ${cy}L${cx - r * 0.3} ${cy + r * 0.45}Z" fill="${arrow}"/>`;

/** A four-pointed sparkle. */
const sparkle = (cx: number, cy: number, r: number, fill: string) =>
  `<path d="M${cx} ${cy - r}Q${cx + r * 0.18} ${cy - r * 0.18} ${cx + r} ${cy}Q${cx + r * 0.18} ${cy + r * 0.18} ${cx} ${cy + r}Q${cx - r * 0.18} ${cy + r * 0.18} ${cx - r} ${cy}Q${cx - r * 0.18} ${cy - r * 0.18} ${cx} ${cy - r}Z" fill="${fill}"/>`;

const lines = (x: number, y: number, widths: number[], gap: number, fill: string, height = 8) =>
  widths
    .map(
      (width, i) =>
        `<rect x="${x}" y="${y + i * gap}" width="${width}" height="${height}" rx="${height / 2}" fill="${fill}"/>`,
    )
    .join("");

const shield = (cx: number, cy: number, s: number, fill: string, extra = "") =>
  `<path d="M${cx} ${cy - 100 * s}L${cx + 80 * s} ${cy - 70 * s}V${cy}C${cx + 80 * s} ${cy + 60 * s} ${cx + 40 * s} ${cy + 90 * s} ${cx} ${cy + 110 * s}C${cx - 40 * s} ${cy + 90 * s} ${cx - 80 * s} ${cy + 60 * s} ${cx - 80 * s} ${cy}V${cy - 70 * s}Z" fill="${fill}" ${extra}/>`;

const globe = (cx: number, cy: number, r: number, stroke: string, width: number) =>
  `<g fill="none" stroke="${stroke}" stroke-width="${width}"><circle cx="${cx}" cy="${cy}" r="${r}"/>` +
  `<ellipse cx="${cx}" cy="${cy}" rx="${r * 0.45}" ry="${r}"/><path d="M${cx - r} ${cy}H${cx + r}M${cx - r * 0.87} ${cy - r * 0.5}H${cx + r * 0.87}M${cx - r * 0.87} ${cy + r * 0.5}H${cx + r * 0.87}"/></g>`;

const motifs = {
  /** A wall television with a play button, a row of titles and a 4K badge. */
  "television-4k": (p) =>
    `<rect x="14" y="44" width="252" height="160" rx="16" fill="${p.deep}" stroke="${W}" stroke-width="6"/>` +
    `<rect x="28" y="58" width="224" height="132" rx="6" fill="url(#screen)"/>` +
    [40, 92, 144, 196]
      .map((x) => `<rect x="${x}" y="152" width="44" height="28" rx="4" fill="${W}" fill-opacity=".35"/>`)
      .join("") +
    play(140, 104, 28, W, p.base) +
    `<rect x="124" y="204" width="32" height="18" fill="${W}"/><rect x="84" y="220" width="112" height="10" rx="5" fill="${W}"/>` +
    chip(238, 22, 64, "4K", p.accent, p.deep, 22),

  /** A laptop showing four profiles, one of them yours, with a phone beside it. */
  "shared-profiles": (p) =>
    `<rect x="20" y="50" width="210" height="136" rx="10" fill="${p.deep}" stroke="${W}" stroke-width="6"/>` +
    `<path d="M0 196H250L238 214H12Z" fill="${W}"/>` +
    [0, 1, 2, 3]
      .map((i) => {
        const x = 44 + (i % 2) * 92;
        const y = 66 + Math.floor(i / 2) * 58;
        const mine = i === 0;
        return (
          `<rect x="${x}" y="${y}" width="72" height="48" rx="8" fill="${mine ? p.accent : W}" fill-opacity="${mine ? 1 : 0.25}"/>` +
          `<circle cx="${x + 36}" cy="${y + 18}" r="9" fill="${mine ? p.deep : W}"/><path d="M${x + 20} ${y + 42}Q${x + 36} ${y + 24} ${x + 52} ${y + 42}Z" fill="${mine ? p.deep : W}"/>`
        );
      })
      .join("") +
    `<rect x="206" y="96" width="66" height="124" rx="12" fill="${p.deep}" stroke="${W}" stroke-width="5"/>` +
    `<rect x="214" y="108" width="50" height="96" rx="4" fill="url(#screen)"/>` +
    play(239, 156, 14, W, p.base) +
    chip(238, 50, 60, "HD", p.accent, p.deep, 18),

  /** A cinema screen between curtains, with rows of seats. */
  "cinema-screen": (p) =>
    `<path d="M20 40Q140 20 260 40V170Q140 152 20 170Z" fill="url(#screen)" stroke="${W}" stroke-width="5"/>` +
    `<text x="140" y="112" text-anchor="middle" font-size="34" font-weight="800" fill="${W}" letter-spacing="2">ULTRA</text>` +
    `<text x="140" y="142" text-anchor="middle" font-size="18" font-weight="700" fill="${p.deep}" letter-spacing="6">HD · HDR</text>` +
    `<path d="M0 20Q40 20 30 110Q24 170 0 200Z" fill="${p.accent}"/><path d="M280 20Q240 20 250 110Q256 170 280 200Z" fill="${p.accent}"/>` +
    [0, 1, 2]
      .map((row) =>
        Array.from({ length: 7 - row }, (_, i) => {
          const x = 40 + row * 16 + i * 32;
          const y = 196 + row * 26;
          return `<rect x="${x}" y="${y}" width="24" height="20" rx="6" fill="${W}" fill-opacity="${0.9 - row * 0.25}"/>`;
        }).join(""),
      )
      .join(""),

  /** A video player with its progress bar, and adverts crossed out. */
  "video-player": (p) =>
    `<rect x="10" y="40" width="260" height="170" rx="14" fill="${W}"/>` +
    `<rect x="22" y="52" width="236" height="124" rx="8" fill="url(#screen)"/>` +
    play(140, 114, 30, W, p.base) +
    `<rect x="22" y="188" width="236" height="8" rx="4" fill="${p.deep}" fill-opacity=".2"/><rect x="22" y="188" width="140" height="8" rx="4" fill="${p.base}"/><circle cx="162" cy="192" r="9" fill="${p.base}"/>` +
    `<g transform="rotate(-8 214 236)"><rect x="168" y="218" width="92" height="38" rx="8" fill="${p.accent}"/>` +
    `<text x="214" y="245" text-anchor="middle" font-size="22" font-weight="800" fill="${p.deep}">ADS</text>` +
    `<path d="M172 252L256 222" stroke="${p.deep}" stroke-width="5" stroke-linecap="round"/></g>`,

  /** A film reel unwinding its strip, and a clapperboard. */
  "film-reel": (p) =>
    `<path d="M140 196Q210 236 280 206V250Q210 280 140 240Z" fill="${p.deep}"/>` +
    [166, 192, 218, 244]
      .map((x, i) => `<rect x="${x}" y="${220 + [2, 8, 10, 8][i]}" width="14" height="14" rx="2" fill="${p.accent}"/>`)
      .join("") +
    `<circle cx="100" cy="150" r="76" fill="${W}"/>` +
    [18, 90, 162, 234, 306]
      .map((angle) => {
        const a = (angle * Math.PI) / 180;
        return `<circle cx="${(100 + 44 * Math.cos(a)).toFixed(1)}" cy="${(150 + 44 * Math.sin(a)).toFixed(1)}" r="17" fill="${p.dark}"/>`;
      })
      .join("") +
    `<circle cx="100" cy="150" r="10" fill="${p.accent}"/>` +
    `<g transform="translate(176 20)"><rect y="24" width="96" height="68" rx="6" fill="${p.deep}"/>` +
    `<path d="M0 0H96V20H0Z" fill="${W}"/><path d="M12 0L26 20M40 0L54 20M68 0L82 20" stroke="${p.deep}" stroke-width="8"/>` +
    lines(14, 42, [64, 44], 18, W, 7) +
    `</g>`,

  /** A round mascot with big shining eyes in a burst of speed lines. */
  "anime-mascot": (p) =>
    Array.from({ length: 16 }, (_, i) => {
      const a = (i * Math.PI) / 8;
      return `<path d="M${(140 + 84 * Math.cos(a)).toFixed(1)} ${(140 + 84 * Math.sin(a)).toFixed(1)}L${(140 + 138 * Math.cos(a + 0.06)).toFixed(1)} ${(140 + 138 * Math.sin(a + 0.06)).toFixed(1)}L${(140 + 138 * Math.cos(a - 0.06)).toFixed(1)} ${(140 + 138 * Math.sin(a - 0.06)).toFixed(1)}Z" fill="${W}" fill-opacity=".3"/>`;
    }).join("") +
    `<path d="M78 108L92 40L132 86Z" fill="${W}"/><path d="M202 108L188 40L148 86Z" fill="${W}"/>` +
    `<path d="M88 92L96 58L118 84Z" fill="${p.accent}"/><path d="M192 92L184 58L162 84Z" fill="${p.accent}"/>` +
    `<circle cx="140" cy="150" r="84" fill="${W}"/>` +
    [108, 172]
      .map(
        (x) =>
          `<ellipse cx="${x}" cy="146" rx="20" ry="26" fill="${p.deep}"/><ellipse cx="${x}" cy="154" rx="12" ry="14" fill="${p.base}"/><circle cx="${x - 7}" cy="136" r="7" fill="${W}"/><circle cx="${x + 6}" cy="160" r="3" fill="${W}"/>`,
      )
      .join("") +
    `<ellipse cx="86" cy="186" rx="14" ry="8" fill="${p.accent}" fill-opacity=".7"/><ellipse cx="194" cy="186" rx="14" ry="8" fill="${p.accent}" fill-opacity=".7"/>` +
    `<path d="M128 188Q134 196 140 188Q146 196 152 188" fill="none" stroke="${p.deep}" stroke-width="4" stroke-linecap="round"/>` +
    sparkle(240, 60, 18, p.accent) +
    sparkle(36, 220, 12, W),

  /** The planet with a mountain range, a leaf and the sun. */
  "planet-nature": (p) =>
    `<circle cx="140" cy="130" r="104" fill="url(#screen)"/>` +
    `<path d="M70 70Q100 60 112 80T150 96Q130 122 96 112T70 70Z" fill="${W}" fill-opacity=".4"/>` +
    `<path d="M170 140Q200 130 218 150T208 196Q186 190 176 172T170 140Z" fill="${W}" fill-opacity=".4"/>` +
    `<path d="M10 250L90 150L128 196L170 126L270 250Z" fill="${p.deep}"/>` +
    `<path d="M170 126L190 152L178 148L166 160L156 146Z" fill="${W}"/><path d="M90 150L104 168L94 166L84 174L78 166Z" fill="${W}"/>` +
    `<circle cx="230" cy="48" r="24" fill="${p.accent}"/>` +
    `<path d="M30 96C30 60 60 40 86 44C84 76 64 96 30 96Z" fill="${p.accent}"/><path d="M34 92L72 56" stroke="${p.deep}" stroke-width="3"/>`,

  /** A ball, a live scoreboard and the pitch's lines. */
  "live-scoreboard": (p) =>
    `<rect x="10" y="150" width="260" height="100" rx="10" fill="${W}" fill-opacity=".2" stroke="${W}" stroke-width="4"/>` +
    `<path d="M140 150V250" stroke="${W}" stroke-width="4"/><circle cx="140" cy="200" r="22" fill="none" stroke="${W}" stroke-width="4"/>` +
    `<rect x="40" y="20" width="200" height="84" rx="12" fill="${p.deep}"/>` +
    `<text x="140" y="80" text-anchor="middle" font-size="44" font-weight="800" fill="${W}">2 : 1</text>` +
    chip(140, 4, 82, "● LIVE", p.accent, p.deep, 16) +
    `<circle cx="206" cy="186" r="40" fill="${W}"/>` +
    `<path d="M206 166L224 178L218 198H194L188 178Z" fill="${p.deep}"/>` +
    `<path d="M206 146V166M224 178L244 172M218 198L230 216M194 198L182 216M188 178L168 172" stroke="${p.deep}" stroke-width="4"/>`,

  /** A smiling cloud with balloons and a rainbow, for children's films. */
  "family-cloud": (p) =>
    [p.accent, W, p.dark]
      .map(
        (colour, i) =>
          `<path d="M${30 + i * 16} 170A${110 - i * 16} ${110 - i * 16} 0 0 1 ${250 - i * 16} 170" fill="none" stroke="${colour}" stroke-width="14" stroke-opacity="${i === 1 ? 0.6 : 1}"/>`,
      )
      .join("") +
    `<path d="M50 220C20 220 16 176 50 172C52 140 96 130 112 156C126 124 182 126 188 164C226 160 238 218 200 220Z" fill="${W}"/>` +
    `<circle cx="104" cy="190" r="6" fill="${p.deep}"/><circle cx="154" cy="190" r="6" fill="${p.deep}"/>` +
    `<path d="M114 204Q129 218 144 204" fill="none" stroke="${p.deep}" stroke-width="5" stroke-linecap="round"/>` +
    `<ellipse cx="224" cy="70" rx="22" ry="28" fill="${p.accent}"/><path d="M224 98Q216 130 226 150" fill="none" stroke="${W}" stroke-width="2"/>` +
    `<ellipse cx="252" cy="94" rx="16" ry="20" fill="${W}"/><path d="M252 114Q246 136 240 150" fill="none" stroke="${W}" stroke-width="2"/>` +
    sparkle(42, 50, 14, W) +
    sparkle(84, 84, 8, p.accent),

  /** A music note on rings of sound, over an equaliser. */
  "note-waves": (p) =>
    [100, 76, 52]
      .map(
        (r, i) =>
          `<circle cx="140" cy="120" r="${r}" fill="none" stroke="${W}" stroke-width="6" stroke-opacity="${0.25 + i * 0.2}"/>`,
      )
      .join("") +
    `<circle cx="140" cy="120" r="34" fill="${W}"/>` +
    `<path d="M132 100V134" stroke="${p.base}" stroke-width="6"/><path d="M132 100L156 94V106L132 112Z" fill="${p.base}"/><circle cx="124" cy="136" r="10" fill="${p.base}"/>` +
    [30, 54, 78, 102, 126, 150, 174, 198, 222, 246]
      .map((x, i) => {
        const h = [26, 44, 32, 60, 40, 52, 30, 48, 22, 36][i];
        return `<rect x="${x - 7}" y="${262 - h}" width="14" height="${h}" rx="4" fill="${i % 3 === 0 ? p.accent : W}"/>`;
      })
      .join(""),

  /** Over-ear headphones with a hi-fi badge and a sound wave between the cups. */
  headphones: (p) =>
    `<path d="M50 170V130A90 90 0 0 1 230 130V170" fill="none" stroke="${W}" stroke-width="16" stroke-linecap="round"/>` +
    `<rect x="30" y="150" width="56" height="92" rx="24" fill="${p.deep}"/><rect x="194" y="150" width="56" height="92" rx="24" fill="${p.deep}"/>` +
    `<rect x="44" y="162" width="28" height="68" rx="14" fill="${p.accent}"/><rect x="208" y="162" width="28" height="68" rx="14" fill="${p.accent}"/>` +
    `<path d="M100 196H112L120 170L132 226L144 180L154 206L162 196H180" fill="none" stroke="${W}" stroke-width="5" stroke-linejoin="round" stroke-linecap="round"/>` +
    chip(140, 54, 84, "HI-FI", p.accent, p.deep, 18),

  /** A producer's pad grid with knobs, some pads lit. */
  "beat-pads": (p) =>
    `<rect x="20" y="30" width="240" height="230" rx="18" fill="${p.deep}"/>` +
    [60, 108, 156, 204]
      .map(
        (x, i) =>
          `<circle cx="${x}" cy="62" r="14" fill="${W}" fill-opacity=".9"/><path d="M${x} 62L${x + [8, -6, 10, 0][i]} ${[52, 50, 56, 48][i]}" stroke="${p.deep}" stroke-width="4" stroke-linecap="round"/>`,
      )
      .join("") +
    Array.from({ length: 16 }, (_, i) => {
      const x = 40 + (i % 4) * 52;
      const y = 94 + Math.floor(i / 4) * 40;
      const lit = [0, 5, 6, 10, 15].includes(i);
      return `<rect x="${x}" y="${y}" width="44" height="32" rx="6" fill="${lit ? p.accent : W}" fill-opacity="${lit ? 1 : 0.22}"/>`;
    }).join(""),

  /** An open book with a microphone, for audiobooks and podcasts. */
  "book-microphone": (p) =>
    `<path d="M20 100Q80 80 140 110Q200 80 260 100V240Q200 220 140 250Q80 220 20 240Z" fill="${W}"/>` +
    `<path d="M140 110V250" stroke="${p.dark}" stroke-width="3"/>` +
    lines(40, 130, [76, 64, 80, 56], 22, p.dark, 6) +
    `<g transform="translate(170 20)"><rect x="20" y="0" width="44" height="76" rx="22" fill="${p.deep}"/>` +
    [16, 30, 44]
      .map((y) => `<path d="M28 ${y}H56" stroke="${p.accent}" stroke-width="4" stroke-linecap="round"/>`)
      .join("") +
    `<path d="M8 50A34 34 0 0 0 76 50" fill="none" stroke="${p.deep}" stroke-width="6"/><path d="M42 86V104M26 104H58" stroke="${p.deep}" stroke-width="6" stroke-linecap="round"/></g>` +
    `<path d="M160 160Q190 150 220 170M166 186Q190 178 214 192" fill="none" stroke="${p.accent}" stroke-width="5" stroke-linecap="round"/>`,

  /** A retro radio with a speaker grille and a tuning dial. */
  "retro-radio": (p) =>
    `<path d="M80 70L200 20" stroke="${W}" stroke-width="6" stroke-linecap="round"/><circle cx="200" cy="20" r="8" fill="${p.accent}"/>` +
    `<rect x="10" y="70" width="260" height="176" rx="26" fill="${W}"/>` +
    `<rect x="26" y="88" width="228" height="42" rx="8" fill="${p.deep}"/>` +
    [40, 70, 100, 130, 160, 190, 220]
      .map((x) => `<path d="M${x + 6} 100V118" stroke="${W}" stroke-opacity=".5" stroke-width="2"/>`)
      .join("") +
    `<path d="M150 94V124" stroke="${p.accent}" stroke-width="4"/>` +
    Array.from(
      { length: 20 },
      (_, i) => `<circle cx="${44 + (i % 5) * 24}" cy="${156 + Math.floor(i / 5) * 22}" r="7" fill="${p.dark}"/>`,
    ).join("") +
    `<circle cx="204" cy="188" r="38" fill="${p.base}"/><circle cx="204" cy="188" r="24" fill="${p.deep}"/><path d="M204 188L220 172" stroke="${p.accent}" stroke-width="5" stroke-linecap="round"/>`,

  /** A game controller in front of a wall of game covers. */
  "controller-library": (p) =>
    Array.from({ length: 12 }, (_, i) => {
      const x = 14 + (i % 4) * 66;
      const y = 14 + Math.floor(i / 4) * 74;
      const colours = [p.accent, W, p.dark, W];
      return `<rect x="${x}" y="${y}" width="56" height="64" rx="8" fill="${colours[(i + Math.floor(i / 4)) % 4]}" fill-opacity="${i % 3 === 1 ? 0.9 : 0.45}"/>`;
    }).join("") +
    `<path d="M60 170Q64 146 96 146H184Q216 146 220 170L236 236Q240 262 214 262Q198 262 186 238H94Q82 262 66 262Q40 262 44 236Z" fill="${p.deep}" stroke="${W}" stroke-width="5"/>` +
    `<path d="M96 182V210M82 196H110" stroke="${W}" stroke-width="8" stroke-linecap="round"/>` +
    `<circle cx="180" cy="186" r="8" fill="${p.accent}"/><circle cx="198" cy="202" r="8" fill="${W}"/><circle cx="162" cy="202" r="8" fill="${W}"/><circle cx="180" cy="218" r="8" fill="${p.accent}"/>`,

  /** A shield and two crossed swords, with players online. */
  "sword-shield": (p) =>
    `<path d="M40 40L220 230M240 40L60 230" stroke="${W}" stroke-width="12" stroke-linecap="round"/>` +
    `<path d="M28 52L52 28M252 52L228 28" stroke="${p.accent}" stroke-width="12" stroke-linecap="round"/>` +
    shield(140, 130, 0.95, p.deep, `stroke="${W}" stroke-width="6"`) +
    `<path d="M140 76L156 110L192 114L166 138L174 174L140 156L106 174L114 138L88 114L124 110Z" fill="${p.accent}"/>` +
    chip(140, 232, 144, "● 2,418 online", W, p.deep, 15),

  /** An arcade cabinet with a pixel invader on its screen. */
  "arcade-cabinet": (p) => {
    const invader = [
      "00100000100",
      "00010001000",
      "00111111100",
      "01101110110",
      "11111111111",
      "10111111101",
      "10100000101",
      "00011011000",
    ];
    const pixels = invader
      .flatMap((row, y) =>
        [...row].map((cell, x) =>
          cell === "1" ? `<rect x="${86 + x * 10}" y="${62 + y * 10}" width="10" height="10" fill="${p.accent}"/>` : "",
        ),
      )
      .join("");
    return (
      `<path d="M60 20H220L230 40V260H50V40Z" fill="${W}"/>` +
      `<rect x="60" y="20" width="160" height="26" fill="${p.dark}"/><text x="140" y="40" text-anchor="middle" font-size="16" font-weight="800" fill="${W}" letter-spacing="3">ARCADE</text>` +
      `<rect x="70" y="50" width="140" height="100" rx="6" fill="${p.deep}"/>` +
      pixels +
      `<path d="M50 160H230L240 190H40Z" fill="${p.dark}"/>` +
      `<path d="M96 172V156" stroke="${p.deep}" stroke-width="6"/><circle cx="96" cy="152" r="9" fill="${p.accent}"/>` +
      `<circle cx="164" cy="176" r="7" fill="${p.accent}"/><circle cx="188" cy="176" r="7" fill="${W}"/>` +
      `<rect x="112" y="210" width="56" height="26" rx="4" fill="${p.deep}"/><rect x="134" y="216" width="12" height="14" rx="2" fill="${p.accent}"/>`
    );
  },

  /** A cloud holding a controller, streaming to a phone and a screen at 120 fps. */
  "cloud-controller": (p) =>
    `<path d="M60 150C20 150 14 96 56 90C60 46 120 30 146 66C170 30 238 44 234 96C270 102 266 150 230 150Z" fill="${W}"/>` +
    `<path d="M98 96Q100 84 114 84H166Q180 84 182 96L188 124Q190 136 178 136Q170 136 164 126H116Q110 136 102 136Q90 136 92 124Z" fill="${p.base}"/>` +
    `<path d="M116 100V118M107 109H125" stroke="${W}" stroke-width="5" stroke-linecap="round"/><circle cx="160" cy="104" r="5" fill="${p.accent}"/><circle cx="170" cy="114" r="5" fill="${W}"/>` +
    `<path d="M90 160V190M190 160V180" stroke="${W}" stroke-width="4" stroke-dasharray="6 6"/>` +
    `<rect x="20" y="192" width="140" height="80" rx="8" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
    `<rect x="176" y="184" width="50" height="88" rx="10" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
    chip(90, 216, 96, "120 FPS", p.accent, p.deep, 16),

  /** A stack of gold coins with a gem. */
  "gold-coins": (p) => {
    const coin = (x: number, y: number) =>
      `<ellipse cx="${x}" cy="${y + 10}" rx="44" ry="16" fill="#b45309"/><rect x="${x - 44}" y="${y}" width="88" height="10" fill="#b45309"/><ellipse cx="${x}" cy="${y}" rx="44" ry="16" fill="#facc15"/><ellipse cx="${x}" cy="${y}" rx="30" ry="9" fill="none" stroke="#ca8a04" stroke-width="3"/>`;
    const stack = (x: number, bottom: number, count: number) =>
      Array.from({ length: count }, (_, i) => coin(x, bottom - i * 14)).join("");
    return (
      stack(70, 250, 7) +
      stack(150, 250, 10) +
      stack(226, 250, 5) +
      `<path d="M180 60L206 34H244L270 60L225 110Z" fill="${p.accent}"/><path d="M180 60H270M206 34L218 60L225 110L232 60L244 34" fill="none" stroke="${W}" stroke-width="3" stroke-opacity=".7"/>` +
      sparkle(40, 70, 16, "#fde68a") +
      sparkle(116, 40, 10, W)
    );
  },

  /** A conversation with an assistant that sparkles. */
  "chat-sparkle": (p) =>
    `<path d="M20 40H190Q206 40 206 56V116Q206 132 190 132H70L40 156V132H36Q20 132 20 116Z" fill="${W}"/>` +
    lines(40, 62, [140, 110, 126], 22, p.dark, 9) +
    `<path d="M90 160H244Q260 160 260 176V222Q260 238 244 238H236V260L210 238H90Q74 238 74 222V176Q74 160 90 160Z" fill="${p.deep}"/>` +
    [128, 160, 192].map((x, i) => `<circle cx="${x}" cy="199" r="9" fill="${i === 1 ? p.accent : W}"/>`).join("") +
    sparkle(238, 80, 30, p.accent) +
    sparkle(262, 126, 12, W),

  /** A page being written by a pen nib, with a sparkle. */
  "pen-page": (p) =>
    `<rect x="30" y="26" width="170" height="226" rx="12" fill="${W}"/>` +
    lines(52, 58, [120, 96, 126, 80, 110, 60], 26, p.dark, 8) +
    `<g transform="rotate(35 200 150)"><rect x="182" y="30" width="36" height="120" rx="8" fill="${p.deep}"/><rect x="182" y="112" width="36" height="14" fill="${p.accent}"/>` +
    `<path d="M182 150H218L200 200Z" fill="${W}" stroke="${p.deep}" stroke-width="4" stroke-linejoin="round"/><circle cx="200" cy="172" r="4" fill="${p.deep}"/></g>` +
    sparkle(244, 220, 22, p.accent),

  /** A voice's waveform turned into a written transcript. */
  "waveform-transcript": (p) =>
    `<rect x="10" y="60" width="110" height="150" rx="16" fill="${p.deep}"/>` +
    [0, 1, 2, 3, 4, 5, 6, 7]
      .map((i) => {
        const h = [24, 56, 88, 60, 100, 44, 70, 30][i];
        return `<rect x="${24 + i * 11}" y="${135 - h / 2}" width="7" height="${h}" rx="3.5" fill="${i % 2 ? W : p.accent}"/>`;
      })
      .join("") +
    `<path d="M128 135H150" stroke="${W}" stroke-width="6" stroke-linecap="round"/><path d="M146 122L162 135L146 148Z" fill="${W}"/>` +
    `<rect x="168" y="36" width="104" height="200" rx="10" fill="${W}"/>` +
    `<circle cx="186" cy="62" r="8" fill="${p.accent}"/>` +
    lines(200, 58, [56], 0, p.dark, 8) +
    lines(182, 86, [76, 64, 80], 18, p.dark, 6) +
    `<circle cx="186" cy="158" r="8" fill="${p.base}"/>` +
    lines(200, 154, [50], 0, p.dark, 8) +
    lines(182, 182, [80, 58], 18, p.dark, 6),

  /** A framed landscape conjured by a wand. */
  "picture-wand": (p) =>
    `<rect x="20" y="30" width="190" height="150" rx="12" fill="${W}"/><rect x="34" y="44" width="162" height="122" rx="6" fill="url(#screen)"/>` +
    `<circle cx="160" cy="78" r="16" fill="${p.accent}"/><path d="M34 166L90 100L126 140L150 118L196 166Z" fill="${p.deep}"/>` +
    `<path d="M130 260L236 154" stroke="${p.deep}" stroke-width="14" stroke-linecap="round"/><path d="M222 168L236 154" stroke="${W}" stroke-width="14" stroke-linecap="round"/>` +
    sparkle(250, 120, 26, p.accent) +
    sparkle(214, 210, 14, W) +
    sparkle(262, 200, 9, p.accent),

  /** A studio microphone between the two halves of a voice. */
  "studio-microphone": (p) =>
    [0, 1, 2, 3, 4]
      .map((i) => {
        const h = [40, 80, 120, 70, 36][i];
        return (
          `<rect x="${10 + i * 16}" y="${130 - h / 2}" width="9" height="${h}" rx="4.5" fill="${W}" fill-opacity=".8"/>` +
          `<rect x="${261 - i * 16}" y="${130 - h / 2}" width="9" height="${h}" rx="4.5" fill="${W}" fill-opacity=".8"/>`
        );
      })
      .join("") +
    `<rect x="100" y="20" width="80" height="140" rx="40" fill="${p.deep}" stroke="${W}" stroke-width="6"/>` +
    Array.from(
      { length: 5 },
      (_, i) => `<path d="M112 ${56 + i * 18}H168" stroke="${p.accent}" stroke-width="4" stroke-linecap="round"/>`,
    ).join("") +
    `<path d="M84 130A56 56 0 0 0 196 130" fill="none" stroke="${W}" stroke-width="8"/>` +
    `<path d="M140 188V236M100 240H180" stroke="${W}" stroke-width="10" stroke-linecap="round"/>`,

  /** A code editor with a suggestion popping up. */
  "code-editor": (p) =>
    `<rect x="10" y="30" width="260" height="200" rx="14" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
    `<circle cx="32" cy="50" r="6" fill="${p.accent}"/><circle cx="52" cy="50" r="6" fill="${W}" fill-opacity=".5"/><circle cx="72" cy="50" r="6" fill="${W}" fill-opacity=".5"/>` +
    [
      [30, 80, 40, p.accent],
      [78, 80, 90, W],
      [46, 104, 60, W],
      [114, 104, 70, p.accent],
      [46, 128, 110, W],
      [30, 152, 30, p.accent],
    ]
      .map(
        ([x, y, w, fill]) =>
          `<rect x="${x}" y="${y}" width="${w}" height="10" rx="5" fill="${fill}" fill-opacity=".85"/>`,
      )
      .join("") +
    `<rect x="90" y="164" width="160" height="56" rx="8" fill="${W}"/>` +
    sparkle(110, 192, 10, p.base) +
    lines(128, 180, [100, 70], 16, p.dark, 7) +
    `<text x="206" y="270" text-anchor="middle" font-size="40" font-weight="800" fill="${W}">&lt;/&gt;</text>`,

  /** A document, a spreadsheet and a slide, fanned out. */
  "office-documents": (p) =>
    `<g transform="rotate(-10 80 150)"><rect x="20" y="50" width="120" height="160" rx="10" fill="${W}"/>` +
    `<rect x="20" y="50" width="120" height="28" rx="10" fill="#2563eb"/>` +
    lines(36, 96, [88, 70, 84, 60, 80], 20, "#94a3b8", 7) +
    `</g>` +
    `<g transform="rotate(10 200 150)"><rect x="140" y="50" width="120" height="160" rx="10" fill="${W}"/><rect x="140" y="50" width="120" height="28" rx="10" fill="#16a34a"/>` +
    Array.from(
      { length: 15 },
      (_, i) =>
        `<rect x="${152 + (i % 3) * 34}" y="${92 + Math.floor(i / 3) * 22}" width="30" height="18" fill="#16a34a" fill-opacity="${i % 4 === 0 ? 0.55 : 0.18}"/>`,
    ).join("") +
    `</g>` +
    `<rect x="60" y="120" width="160" height="120" rx="10" fill="${W}" stroke="${p.deep}" stroke-width="3"/><rect x="60" y="120" width="160" height="26" rx="10" fill="#ea580c"/>` +
    [
      [82, 60],
      [112, 86],
      [142, 44],
      [172, 72],
    ]
      .map(([x, h]) => `<rect x="${x}" y="${230 - h}" width="20" height="${h}" rx="3" fill="${p.base}"/>`)
      .join(""),

  /** A cloud with a padlock and a storage gauge. */
  "cloud-storage": (p) =>
    `<path d="M64 190C20 190 14 128 60 120C64 64 136 46 164 92C192 52 262 70 256 128C296 136 288 190 248 190Z" fill="${W}"/>` +
    `<rect x="120" y="120" width="64" height="52" rx="10" fill="${p.deep}"/><path d="M132 120V106A20 20 0 0 1 172 106V120" fill="none" stroke="${p.deep}" stroke-width="9"/>` +
    `<circle cx="152" cy="142" r="7" fill="${p.accent}"/><rect x="149" y="144" width="6" height="14" rx="2" fill="${p.accent}"/>` +
    `<rect x="30" y="220" width="220" height="20" rx="10" fill="${p.deep}" fill-opacity=".5"/><rect x="30" y="220" width="146" height="20" rx="10" fill="${p.accent}"/>` +
    `<text x="250" y="270" text-anchor="end" font-size="22" font-weight="800" fill="${W}">2 TB</text>`,

  /** A signed PDF page with a pen. */
  "signed-pdf": (p) =>
    `<path d="M40 20H170L220 70V260H40Z" fill="${W}"/><path d="M170 20V70H220" fill="${p.accent}"/>` +
    `<rect x="20" y="80" width="120" height="46" rx="8" fill="${p.deep}"/>` +
    `<text x="80" y="114" text-anchor="middle" font-size="28" font-weight="800" fill="${W}">PDF</text>` +
    lines(60, 146, [130, 110, 140, 90], 20, "#94a3b8", 7) +
    `<path d="M60 236Q76 206 88 230T118 226Q130 214 150 232" fill="none" stroke="${p.base}" stroke-width="4" stroke-linecap="round"/>` +
    `<g transform="rotate(40 230 170)"><rect x="218" y="80" width="24" height="110" rx="6" fill="${p.deep}"/><path d="M218 190H242L230 222Z" fill="${p.accent}"/></g>`,

  /** An envelope with an at sign and a paper plane on its way. */
  "envelope-at": (p) =>
    `<rect x="20" y="90" width="200" height="140" rx="12" fill="${W}"/>` +
    `<path d="M20 102L120 170L220 102" fill="none" stroke="${p.dark}" stroke-width="6" stroke-linejoin="round"/>` +
    `<circle cx="120" cy="80" r="46" fill="${p.deep}"/><text x="120" y="98" text-anchor="middle" font-size="52" font-weight="800" fill="${p.accent}">@</text>` +
    `<path d="M200 40L270 18L250 90L228 68Z" fill="${p.accent}"/><path d="M228 68L270 18L216 60Z" fill="${W}"/>` +
    `<path d="M196 82Q176 104 196 120" fill="none" stroke="${W}" stroke-width="3" stroke-dasharray="6 6"/>`,

  /** A shield over the globe, with servers pinned around it. */
  "shield-globe": (p) =>
    globe(140, 140, 110, W, 4) +
    [
      [46, 96],
      [230, 80],
      [222, 206],
      [60, 210],
    ]
      .map(
        ([x, y]) =>
          `<circle cx="${x}" cy="${y}" r="10" fill="${p.accent}"/><circle cx="${x}" cy="${y}" r="4" fill="${p.deep}"/>`,
      )
      .join("") +
    shield(140, 140, 0.8, p.deep, `stroke="${W}" stroke-width="6"`) +
    `<circle cx="140" cy="126" r="16" fill="${p.accent}"/><path d="M132 136H148L152 172H128Z" fill="${p.accent}"/>`,

  /** A shield with a play button, connected to a faraway pin. */
  "shield-play": (p) =>
    `<path d="M60 230Q140 150 220 70" fill="none" stroke="${W}" stroke-width="4" stroke-dasharray="8 8"/>` +
    `<path d="M230 16C206 16 194 34 194 50C194 74 230 100 230 100C230 100 266 74 266 50C266 34 254 16 230 16Z" fill="${p.accent}"/><circle cx="230" cy="50" r="12" fill="${p.deep}"/>` +
    shield(110, 158, 0.85, W) +
    play(110, 158, 40, p.deep, p.accent),

  /** A padlock with a hidden password and its key. */
  "padlock-password": (p) =>
    `<path d="M76 110V80A64 64 0 0 1 204 80V110" fill="none" stroke="${W}" stroke-width="20"/>` +
    `<rect x="50" y="104" width="180" height="140" rx="22" fill="${W}"/>` +
    `<rect x="70" y="150" width="140" height="46" rx="10" fill="${p.deep}"/>` +
    [92, 116, 140, 164, 188].map((x) => `<circle cx="${x}" cy="173" r="7" fill="${p.accent}"/>`).join("") +
    `<g transform="rotate(-30 240 240)"><circle cx="220" cy="240" r="22" fill="none" stroke="${p.accent}" stroke-width="10"/><path d="M242 240H290M270 240V256M282 240V252" stroke="${p.accent}" stroke-width="10" stroke-linecap="round"/></g>`,

  /** A shield with a tick, guarding a laptop, a tablet and a phone. */
  "shield-devices": (p) =>
    `<rect x="6" y="150" width="110" height="72" rx="8" fill="${p.deep}" stroke="${W}" stroke-width="4"/><path d="M0 226H122L116 238H6Z" fill="${W}"/>` +
    `<rect x="184" y="140" width="70" height="98" rx="10" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
    `<rect x="240" y="180" width="34" height="62" rx="8" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
    shield(140, 120, 0.9, W) +
    `<path d="M104 124L132 152L180 98" fill="none" stroke="${p.base}" stroke-width="16" stroke-linecap="round" stroke-linejoin="round"/>` +
    chip(140, 238, 100, "5 devices", p.accent, p.deep, 15),

  /** Speech bubbles greeting in three languages. */
  "language-bubbles": (p) =>
    `<path d="M20 30H170Q186 30 186 46V96Q186 112 170 112H70L46 134V112H36Q20 112 20 96Z" fill="${W}"/>` +
    `<text x="103" y="84" text-anchor="middle" font-size="30" font-weight="800" fill="${p.dark}">¡Hola!</text>` +
    `<path d="M104 126H250Q266 126 266 142V192Q266 208 250 208H240V230L218 208H104Q88 208 88 192V142Q88 126 104 126Z" fill="${p.deep}"/>` +
    `<text x="177" y="179" text-anchor="middle" font-size="30" font-weight="800" fill="${W}">Hello</text>` +
    `<path d="M30 206H140Q154 206 154 220V250Q154 264 140 264H56L40 278V264H30Q16 264 16 250V220Q16 206 30 206Z" fill="${p.accent}"/>` +
    `<text x="85" y="243" text-anchor="middle" font-size="20" font-weight="800" fill="${p.deep}">Bonjour</text>`,

  /** Flash cards with a question and its answer, and a bright idea. */
  flashcards: (p) =>
    `<g transform="rotate(-8 120 150)"><rect x="8" y="40" width="170" height="116" rx="12" fill="${p.deep}"/>` +
    `<text x="48" y="104" text-anchor="middle" font-size="40" font-weight="800" fill="${p.accent}">Q</text></g>` +
    `<g transform="rotate(6 150 190)"><rect x="70" y="120" width="170" height="116" rx="12" fill="${W}"/>` +
    `<text x="108" y="176" font-size="36" font-weight="800" fill="${p.base}">A</text>` +
    lines(142, 152, [76, 60, 70], 20, p.dark, 7) +
    `</g>` +
    `<circle cx="230" cy="62" r="30" fill="${p.accent}"/><rect x="218" y="92" width="24" height="16" rx="4" fill="${W}"/>` +
    `<path d="M230 14V4M270 30L280 22M190 30L180 22M278 66H290" stroke="${p.accent}" stroke-width="5" stroke-linecap="round"/>`,

  /** A video call with a mentor, and the session's booked date. */
  "mentor-call": (p) => {
    const person = (x: number, y: number, fill: string) =>
      `<circle cx="${x}" cy="${y}" r="20" fill="${fill}"/><path d="M${x - 36} ${y + 62}Q${x} ${y + 14} ${x + 36} ${y + 62}Z" fill="${fill}"/>`;
    return (
      `<rect x="10" y="30" width="260" height="170" rx="14" fill="${p.deep}" stroke="${W}" stroke-width="4"/>` +
      `<rect x="22" y="42" width="116" height="146" rx="8" fill="url(#screen)"/><rect x="142" y="42" width="116" height="146" rx="8" fill="${W}" fill-opacity=".2"/>` +
      person(80, 106, W) +
      person(200, 106, p.accent) +
      `<rect x="170" y="196" width="90" height="76" rx="10" fill="${W}"/><rect x="170" y="196" width="90" height="22" rx="10" fill="${p.accent}"/>` +
      `<path d="M196 246L210 258L236 230" fill="none" stroke="${p.base}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>`
    );
  },

  /** Graph paper with a parabola, its formula and a set square. */
  "graph-formula": (p) =>
    `<rect x="20" y="20" width="240" height="240" rx="12" fill="${W}"/>` +
    Array.from(
      { length: 9 },
      (_, i) =>
        `<path d="M${44 + i * 24} 32V248M32 ${44 + i * 24}H248" stroke="${p.base}" stroke-opacity=".18" stroke-width="2"/>`,
    ).join("") +
    `<path d="M140 32V248M32 188H248" stroke="${p.deep}" stroke-width="3"/>` +
    `<path d="M56 44Q140 330 224 44" fill="none" stroke="${p.base}" stroke-width="6" stroke-linecap="round"/>` +
    `<text x="168" y="92" font-size="30" font-weight="700" font-style="italic" fill="${p.deep}">y=x²</text>` +
    `<text x="52" y="236" font-size="30" font-weight="700" fill="${p.dark}">π</text>` +
    `<path d="M196 268L270 268L270 194Z" fill="${p.accent}" fill-opacity=".9"/><path d="M228 256H258V226Z" fill="${W}"/>`,

  /** A graduation cap over a certificate with its seal. */
  "cap-certificate": (p) =>
    `<rect x="40" y="120" width="210" height="140" rx="10" fill="${W}"/>` +
    lines(64, 150, [120, 90, 140], 22, "#94a3b8", 8) +
    `<circle cx="206" cy="222" r="22" fill="${p.accent}"/><path d="M194 240L188 272L206 262L224 272L218 240Z" fill="${p.accent}"/><circle cx="206" cy="222" r="12" fill="${W}" fill-opacity=".6"/>` +
    `<path d="M140 20L260 64L140 108L20 64Z" fill="${p.deep}"/><path d="M76 84V116Q140 146 204 116V84L140 108Z" fill="${p.deep}"/>` +
    `<path d="M236 74V120" stroke="${p.accent}" stroke-width="5"/><circle cx="236" cy="126" r="8" fill="${p.accent}"/>`,

  /** A Bézier curve with its anchor points and handles, and the pen that drew it. */
  "bezier-curve": (p) =>
    `<path d="M30 220C60 60 200 60 250 170" fill="none" stroke="${W}" stroke-width="8" stroke-linecap="round"/>` +
    `<path d="M30 220L60 70M250 170L210 60" stroke="${p.accent}" stroke-width="3"/>` +
    [
      [60, 70],
      [210, 60],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="10" fill="${p.accent}"/>`)
      .join("") +
    [
      [30, 220],
      [250, 170],
    ]
      .map(
        ([x, y]) =>
          `<rect x="${x - 12}" y="${y - 12}" width="24" height="24" fill="${W}" stroke="${p.deep}" stroke-width="4"/>`,
      )
      .join("") +
    `<g transform="translate(118 120)"><path d="M20 0L40 50L30 110H10L0 50Z" fill="${p.deep}" stroke="${W}" stroke-width="4" stroke-linejoin="round"/><circle cx="20" cy="52" r="7" fill="${p.accent}"/><path d="M20 0V45" stroke="${W}" stroke-width="3"/><rect x="6" y="110" width="28" height="30" rx="4" fill="${W}"/></g>`,

  /** A painter's palette beside a stack of ready-made templates. */
  "palette-templates": (p) =>
    `<rect x="150" y="20" width="120" height="80" rx="10" fill="${W}" fill-opacity=".4"/><rect x="150" y="110" width="120" height="80" rx="10" fill="${W}" fill-opacity=".6"/><rect x="150" y="200" width="120" height="64" rx="10" fill="${W}"/>` +
    lines(166, 218, [70, 50], 16, p.base, 8) +
    `<path d="M110 40C40 40 10 100 20 150C30 210 90 250 140 240C170 234 160 206 146 196C134 186 140 168 160 170C200 174 220 150 210 110C200 70 160 40 110 40Z" fill="${W}"/>` +
    [
      [70, 90, "#ef4444"],
      [112, 76, "#f59e0b"],
      [150, 104, "#22c55e"],
      [56, 144, "#3b82f6"],
      [80, 196, p.base],
    ]
      .map(([x, y, fill]) => `<circle cx="${x}" cy="${y}" r="17" fill="${fill}"/>`)
      .join("") +
    `<circle cx="112" cy="204" r="12" fill="${p.dark}" fill-opacity=".25"/>`,

  /** An app's wireframe on a phone, linked to its next screen, with a cursor. */
  "wireframe-screens": (p) =>
    `<rect x="20" y="20" width="120" height="240" rx="18" fill="${p.deep}" stroke="${W}" stroke-width="5"/>` +
    `<rect x="34" y="44" width="92" height="50" rx="6" fill="${p.accent}"/>` +
    lines(34, 108, [92, 70, 80], 18, W, 8) +
    `<rect x="34" y="172" width="42" height="42" rx="6" fill="${W}" fill-opacity=".35"/><rect x="84" y="172" width="42" height="42" rx="6" fill="${W}" fill-opacity=".35"/>` +
    `<rect x="42" y="226" width="76" height="20" rx="10" fill="${W}"/>` +
    `<rect x="176" y="50" width="96" height="180" rx="14" fill="${W}"/>` +
    lines(190, 70, [68, 50], 16, p.base, 8) +
    `<rect x="190" y="108" width="68" height="70" rx="6" fill="${p.base}" fill-opacity=".25"/>` +
    `<path d="M118 236Q150 250 176 196" fill="none" stroke="${p.accent}" stroke-width="4" stroke-dasharray="7 6"/><path d="M168 200L178 188L184 204Z" fill="${p.accent}"/>` +
    `<path d="M210 196L210 236L220 226L228 244L236 240L228 222L242 222Z" fill="${p.deep}" stroke="${W}" stroke-width="3" stroke-linejoin="round"/>`,

  /** A type specimen: letters on their baseline and guides. */
  "type-specimen": (p) =>
    `<rect x="10" y="30" width="260" height="210" rx="14" fill="${W}"/>` +
    `<path d="M24 90H256M24 190H256" stroke="${p.base}" stroke-width="2" stroke-dasharray="6 6"/><path d="M24 120H256" stroke="${p.accent}" stroke-width="2"/>` +
    `<text x="32" y="190" font-family="DejaVu Serif, Georgia, serif" font-size="120" font-weight="700" fill="${p.deep}">Aa</text>` +
    `<text x="204" y="190" font-family="DejaVu Sans, Arial, sans-serif" font-size="100" font-style="italic" fill="${p.base}">g</text>` +
    `<circle cx="32" cy="190" r="6" fill="${p.accent}"/><circle cx="256" cy="190" r="6" fill="${p.accent}"/>` +
    chip(140, 250, 132, "25,000 fonts", p.accent, p.deep, 15),

  /** A camera in front of a fan of photographs. */
  "camera-photos": (p) =>
    `<g transform="rotate(-12 140 100)"><rect x="60" y="20" width="150" height="110" rx="6" fill="${W}"/><rect x="70" y="30" width="130" height="80" fill="${p.accent}" fill-opacity=".6"/></g>` +
    `<g transform="rotate(8 160 100)"><rect x="96" y="24" width="150" height="110" rx="6" fill="${W}"/><rect x="106" y="34" width="130" height="80" fill="url(#screen)"/><path d="M106 114L150 70L180 100L200 84L236 114Z" fill="${p.deep}"/><circle cx="210" cy="56" r="10" fill="${p.accent}"/></g>` +
    `<rect x="30" y="130" width="220" height="130" rx="18" fill="${p.deep}" stroke="${W}" stroke-width="5"/><path d="M90 130L104 108H164L178 130Z" fill="${p.deep}" stroke="${W}" stroke-width="5" stroke-linejoin="round"/>` +
    `<circle cx="140" cy="196" r="44" fill="${W}"/><circle cx="140" cy="196" r="30" fill="${p.base}"/><circle cx="128" cy="184" r="9" fill="${W}" fill-opacity=".7"/>` +
    `<circle cx="222" cy="152" r="7" fill="${p.accent}"/>`,

  /** A checklist with ticks, a bell and a mint leaf. */
  "checklist-leaf": (p) =>
    `<rect x="30" y="30" width="180" height="230" rx="16" fill="${W}"/><rect x="84" y="18" width="72" height="28" rx="10" fill="${p.deep}"/>` +
    [0, 1, 2, 3]
      .map((i) => {
        const y = 76 + i * 44;
        const done = i < 3;
        return (
          `<rect x="50" y="${y}" width="26" height="26" rx="7" fill="${done ? p.base : "none"}" stroke="${p.base}" stroke-width="4"/>` +
          (done
            ? `<path d="M56 ${y + 13}L62 ${y + 19}L71 ${y + 7}" fill="none" stroke="${W}" stroke-width="4" stroke-linecap="round"/>`
            : "") +
          `<rect x="90" y="${y + 8}" width="${[96, 76, 88, 60][i]}" height="10" rx="5" fill="${done ? "#cbd5e1" : p.dark}"/>`
        );
      })
      .join("") +
    `<path d="M200 250C200 190 240 160 276 160C276 220 246 250 200 250Z" fill="${p.accent}"/><path d="M206 244L260 180" stroke="${p.deep}" stroke-width="3"/>` +
    `<path d="M226 60A22 22 0 0 1 270 60V86L278 96H218L226 86Z" fill="${p.accent}"/><circle cx="248" cy="104" r="7" fill="${p.accent}"/>`,

  /** A focus timer, most of its round already done. */
  "focus-timer": (p) =>
    `<circle cx="140" cy="146" r="110" fill="${p.deep}"/>` +
    `<circle cx="140" cy="146" r="90" fill="none" stroke="${W}" stroke-opacity=".2" stroke-width="16"/>` +
    `<path d="M140 56A90 90 0 1 1 50.5 136.6" fill="none" stroke="${p.accent}" stroke-width="16" stroke-linecap="round"/>` +
    `<text x="140" y="160" text-anchor="middle" font-size="44" font-weight="800" fill="${W}">25:00</text>` +
    `<text x="140" y="190" text-anchor="middle" font-size="15" font-weight="700" fill="${p.accent}" letter-spacing="3">DEEP WORK</text>` +
    `<rect x="122" y="16" width="36" height="18" rx="6" fill="${W}"/><path d="M140 34V40" stroke="${W}" stroke-width="6"/>`,

  /** A workspace page of notes beside a board of cards. */
  "notes-board": (p) =>
    `<rect x="10" y="30" width="150" height="220" rx="12" fill="${W}"/>` +
    `<rect x="26" y="48" width="90" height="14" rx="7" fill="${p.deep}"/>` +
    lines(26, 78, [118, 100, 110], 18, "#94a3b8", 7) +
    [0, 1]
      .map(
        (i) =>
          `<rect x="26" y="${140 + i * 22}" width="14" height="14" rx="4" fill="none" stroke="${p.base}" stroke-width="3"/><rect x="48" y="${143 + i * 22}" width="${[80, 64][i]}" height="8" rx="4" fill="#94a3b8"/>`,
      )
      .join("") +
    `<rect x="26" y="196" width="118" height="38" rx="6" fill="${p.accent}" fill-opacity=".5"/>` +
    [0, 1]
      .map(
        (column) =>
          `<rect x="${176 + column * 52}" y="30" width="46" height="220" rx="10" fill="${W}" fill-opacity=".25"/>` +
          [0, 1, 2]
            .slice(0, 3 - column)
            .map(
              (i) =>
                `<rect x="${182 + column * 52}" y="${42 + i * 46}" width="34" height="38" rx="6" fill="${i === 0 ? p.accent : W}"/>`,
            )
            .join(""),
      )
      .join(""),
} satisfies Record<string, Draw>;

export type DemoMotif = keyof typeof motifs;

export function drawMotif(motif: DemoMotif, palette: Palette): string {
  return motifs[motif](palette);
}
