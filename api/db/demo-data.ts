/*
 * The demo catalogue: fictional brands only, so the store can be shown without borrowing trademarks.
 * Everything here is plain data; seed.ts turns it into rows with stable ids.
 */

import type { DemoArt } from "./demo-art/tile";

export type DemoCategory = { slug: string; name: string };

export type DemoOption = {
  title: string;
  /** How many available credentials to generate. */
  stock: number;
  /** Price of the 30-day warranty; other durations are derived from it. */
  monthlyCents: number;
};

export type DemoProduct = {
  slug: string;
  title: string;
  /** The picture's background; its illustration and accent are in `art` (ADR 043). */
  colour: string;
  art: DemoArt;
  categories: string[];
  label: string;
  subtitle: string;
  intro: string;
  /** How many description sections follow the intro: short 0, medium 1, long 3. */
  detail: "short" | "medium" | "long";
  warrantyDays: number[];
  options: DemoOption[];
  fulfilMode?: "manual";
  minQuantity?: number;
  maxQuantity?: number;
};

export const demoCategories: DemoCategory[] = [
  { slug: "streaming", name: "Streaming" },
  { slug: "music", name: "Music" },
  { slug: "gaming", name: "Gaming" },
  { slug: "ai-tools", name: "AI Tools" },
  { slug: "software", name: "Software" },
  { slug: "vpn-security", name: "VPN & Security" },
  { slug: "education", name: "Education" },
  { slug: "design", name: "Design" },
  { slug: "productivity", name: "Productivity" },
];

const option = (title: string, stock: number, monthlyCents: number): DemoOption => ({ title, stock, monthlyCents });

export const demoProducts: DemoProduct[] = [
  {
    slug: "streamora-premium-private",
    title: "Streamora Premium Private",
    art: { motif: "television-4k", accent: "#fbbf24" },
    colour: "#e11d48",
    categories: ["streaming"],
    label: "Best seller",
    subtitle: "4K streaming on your own private profile",
    intro:
      "Streamora Premium gives you the full film and series library in 4K UHD with HDR, on a profile nobody else uses.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Private Profile", 32, 399), option("Private Account (4 screens)", 6, 899)],
  },
  {
    slug: "streamora-standard-semi-private",
    title: "Streamora Standard Semi Private",
    art: { motif: "shared-profiles", accent: "#fda4af" },
    colour: "#be123c",
    categories: ["streaming"],
    label: "Great value",
    subtitle: "Full HD profile on a shared account",
    intro:
      "A Full HD Streamora profile on an account shared with up to three other customers. Your profile, your watch list.",
    detail: "medium",
    warrantyDays: [30, 90],
    options: [option("Semi Private Profile", 24, 249)],
  },
  {
    slug: "flixvale-ultra",
    title: "Flixvale Ultra",
    art: { motif: "cinema-screen", accent: "#fcd34d" },
    colour: "#dc2626",
    categories: ["streaming"],
    label: "4K UHD",
    subtitle: "Every Flixvale original in Ultra HD",
    intro: "Flixvale Ultra unlocks originals, early premieres and offline downloads on up to four devices.",
    detail: "long",
    warrantyDays: [30, 180, 365],
    options: [option("Ultra Private", 18, 549), option("Ultra Semi Private", 3, 299)],
  },
  {
    slug: "vidnest-plus",
    title: "Vidnest Plus",
    art: { motif: "video-player", accent: "#fde047" },
    colour: "#ea580c",
    categories: ["streaming"],
    label: "Ad free",
    subtitle: "Creators' videos without adverts",
    intro: "Vidnest Plus removes adverts, plays in the background and keeps videos for offline viewing.",
    detail: "short",
    warrantyDays: [30, 90],
    options: [option("Individual Upgrade", 15, 299), option("Family Invite", 0, 449)],
  },
  {
    slug: "reelhaven-movies",
    title: "ReelHaven Movies",
    art: { motif: "film-reel", accent: "#fdba74" },
    colour: "#9a3412",
    categories: ["streaming"],
    label: "New",
    subtitle: "Classic and independent cinema",
    intro: "A hand-picked library of classic, festival and independent films, with new additions every week.",
    detail: "medium",
    warrantyDays: [30],
    options: [option("Private Account", 8, 349)],
  },
  {
    slug: "animaru-premium",
    title: "Animaru Premium",
    art: { motif: "anime-mascot", accent: "#fde68a" },
    colour: "#f97316",
    categories: ["streaming"],
    label: "Simulcast",
    subtitle: "Anime the same day it airs",
    intro:
      "Animaru Premium streams new episodes an hour after they air, without adverts and with subtitles in ten languages.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Fan Plan Private", 27, 199), option("Mega Fan Semi Private", 12, 149)],
  },
  {
    slug: "docuverse",
    title: "DocuVerse",
    art: { motif: "planet-nature", accent: "#bef264" },
    colour: "#b45309",
    categories: ["streaming", "education"],
    label: "Documentaries",
    subtitle: "Nature, history and science films",
    intro: "Thousands of documentaries about nature, history, science and travel, many in 4K.",
    detail: "short",
    warrantyDays: [30, 90],
    options: [option("Private Account", 0, 299)],
  },
  {
    slug: "sportpulse-tv",
    title: "SportPulse TV Private",
    art: { motif: "live-scoreboard", accent: "#facc15" },
    colour: "#15803d",
    categories: ["streaming"],
    label: "Live sports",
    subtitle: "Live leagues and replays",
    intro: "Live football, basketball and motorsport with full replays and multi-view on big match days.",
    detail: "medium",
    warrantyDays: [30],
    options: [option("Season Pass Private", 4, 1299), option("Monthly Private", 2, 599)],
  },
  {
    slug: "kinocloud",
    title: "KinoCloud Family",
    art: { motif: "family-cloud", accent: "#fbbf24" },
    colour: "#0f766e",
    categories: ["streaming"],
    label: "Family",
    subtitle: "Cartoons and family films, safe for kids",
    intro: "KinoCloud Family brings cartoons and family films with parental controls and kid profiles.",
    detail: "short",
    warrantyDays: [30, 90, 365],
    options: [option("Family Semi Private", 21, 179)],
  },
  {
    slug: "tunewave-premium",
    title: "Tunewave Premium Private",
    art: { motif: "note-waves", accent: "#fef08a" },
    colour: "#16a34a",
    categories: ["music"],
    label: "Best seller",
    subtitle: "Ad-free music on your own account",
    intro:
      "Tunewave Premium plays any song in lossless quality, offline and without adverts, on your own private account.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [
      option("Individual Private", 38, 249),
      option("Duo Private", 9, 349),
      option("Family Semi Private", 14, 199),
    ],
  },
  {
    slug: "melodia-plus",
    title: "Melodia+",
    art: { motif: "headphones", accent: "#d9f99d" },
    colour: "#22c55e",
    categories: ["music"],
    label: "Hi-Fi",
    subtitle: "Studio-quality streaming",
    intro: "Melodia+ streams studio masters in hi-res audio, with spatial mixes for supported headphones.",
    detail: "medium",
    warrantyDays: [30, 180],
    options: [option("Hi-Fi Individual", 11, 299)],
  },
  {
    slug: "beatforge",
    title: "Beatforge Producer",
    art: { motif: "beat-pads", accent: "#fb923c" },
    colour: "#4d7c0f",
    categories: ["music", "software"],
    label: "For creators",
    subtitle: "Samples, loops and presets",
    intro: "Beatforge Producer gives unlimited downloads of royalty-free samples, loops and synth presets.",
    detail: "long",
    warrantyDays: [90, 365],
    options: [option("Producer Private", 5, 599)],
  },
  {
    slug: "podnest",
    title: "Podnest Unlimited",
    art: { motif: "book-microphone", accent: "#fcd34d" },
    colour: "#65a30d",
    categories: ["music", "education"],
    label: "Audiobooks",
    subtitle: "Audiobooks and premium podcasts",
    intro: "One audiobook credit a month and every premium podcast, with sleep timers and speed control.",
    detail: "short",
    warrantyDays: [30, 90],
    options: [option("Unlimited Private", 19, 399), option("Credits Semi Private", 0, 249)],
  },
  {
    slug: "soundloft",
    title: "Soundloft Radio",
    art: { motif: "retro-radio", accent: "#f97316" },
    colour: "#84cc16",
    categories: ["music"],
    label: "Ad free",
    subtitle: "Curated stations without adverts",
    intro: "Soundloft Radio turns any artist into an endless, ad-free station, curated by people rather than charts.",
    detail: "medium",
    warrantyDays: [30],
    options: [option("Listener Plan", 26, 149)],
  },
  {
    slug: "pixelforge-pass",
    title: "Pixelforge Game Pass",
    art: { motif: "controller-library", accent: "#22d3ee" },
    colour: "#7c3aed",
    categories: ["gaming"],
    label: "Best seller",
    subtitle: "Hundreds of games, one subscription",
    intro: "Pixelforge Game Pass opens a library of hundreds of games on console and PC, including day-one releases.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Ultimate Private", 29, 899), option("PC Private", 7, 599), option("Core Semi Private", 13, 399)],
  },
  {
    slug: "questline-online",
    title: "Questline Online",
    art: { motif: "sword-shield", accent: "#fbbf24" },
    colour: "#6d28d9",
    categories: ["gaming"],
    label: "Multiplayer",
    subtitle: "Online play and monthly games",
    intro: "Questline Online unlocks online multiplayer, cloud saves and two free games every month.",
    detail: "medium",
    warrantyDays: [30, 90],
    options: [option("Essential Private", 22, 499), option("Extra Private", 1, 799)],
  },
  {
    slug: "arcadia-vault",
    title: "Arcadia Vault",
    art: { motif: "arcade-cabinet", accent: "#4ade80" },
    colour: "#8b5cf6",
    categories: ["gaming"],
    label: "Retro",
    subtitle: "Classic arcade and console games",
    intro:
      "Arcadia Vault brings over a thousand classic arcade and console titles, with save states and online leaderboards.",
    detail: "short",
    warrantyDays: [30],
    options: [option("Vault Access", 0, 299)],
  },
  {
    slug: "frameplay-cloud",
    title: "Frameplay Cloud Gaming",
    art: { motif: "cloud-controller", accent: "#67e8f9" },
    colour: "#a855f7",
    categories: ["gaming"],
    label: "Cloud",
    subtitle: "Play on any screen at 120 fps",
    intro:
      "Frameplay streams your games from powerful servers to any laptop, phone or TV at up to 120 frames per second.",
    detail: "long",
    warrantyDays: [30, 90],
    options: [option("Priority Semi Private", 17, 699), option("Ultimate Private", 3, 1499)],
  },
  {
    slug: "raidstone-coins",
    title: "Raidstone Gold Pack",
    art: { motif: "gold-coins", accent: "#67e8f9" },
    colour: "#c026d3",
    categories: ["gaming"],
    label: "Manual delivery",
    subtitle: "In-game gold delivered to your character",
    intro:
      "Our team delivers Raidstone gold to your character by in-game mail. Tell us your character and server name in the order message.",
    detail: "medium",
    warrantyDays: [30],
    options: [option("10,000 Gold", 0, 499), option("50,000 Gold", 0, 1999)],
    fulfilMode: "manual",
  },
  {
    slug: "cognita-ai",
    title: "Cognita AI Plus Private",
    art: { motif: "chat-sparkle", accent: "#fde047" },
    colour: "#0ea5e9",
    categories: ["ai-tools"],
    label: "Best seller",
    subtitle: "The assistant with the newest models",
    intro: "Cognita AI Plus gives priority access to the newest reasoning models, file analysis and image generation.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Plus Private", 35, 1199), option("Plus Semi Private", 8, 599)],
  },
  {
    slug: "promptly-pro",
    title: "Promptly Pro",
    art: { motif: "pen-page", accent: "#fcd34d" },
    colour: "#0284c7",
    categories: ["ai-tools", "productivity"],
    label: "Writing",
    subtitle: "An AI writing partner",
    intro: "Promptly Pro drafts, rewrites and summarises in over thirty languages, with a browser extension.",
    detail: "medium",
    warrantyDays: [30, 90],
    options: [option("Pro Private", 20, 899)],
  },
  {
    slug: "scribewise",
    title: "Scribewise Transcribe",
    art: { motif: "waveform-transcript", accent: "#5eead4" },
    colour: "#0369a1",
    categories: ["ai-tools"],
    label: "Meetings",
    subtitle: "Transcripts and notes from any call",
    intro: "Scribewise joins your calls, transcribes them and writes the summary and action points for you.",
    detail: "short",
    warrantyDays: [30],
    options: [option("Business Seat", 2, 999)],
  },
  {
    slug: "visionary-draw",
    title: "Visionary Draw",
    art: { motif: "picture-wand", accent: "#f9a8d4" },
    colour: "#2563eb",
    categories: ["ai-tools", "design"],
    label: "Image AI",
    subtitle: "Images from a sentence",
    intro: "Visionary Draw turns a sentence into artwork, with fast mode, upscaling and private generations.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Standard Private", 16, 1099), option("Pro Semi Private", 0, 1499)],
  },
  {
    slug: "voxel-voice",
    title: "Voxel Voice Studio",
    art: { motif: "studio-microphone", accent: "#a5f3fc" },
    colour: "#1d4ed8",
    categories: ["ai-tools"],
    label: "Voice AI",
    subtitle: "Natural voice-overs and dubbing",
    intro: "Voxel Voice reads your scripts aloud in natural voices and dubs videos into other languages.",
    detail: "medium",
    warrantyDays: [30, 90],
    options: [option("Creator Private", 10, 799), option("Starter Semi Private", 25, 399)],
  },
  {
    slug: "synthcoder",
    title: "Synthcoder Assistant",
    art: { motif: "code-editor", accent: "#34d399" },
    colour: "#1e40af",
    categories: ["ai-tools", "software"],
    label: "For developers",
    subtitle: "Code completion in your editor",
    intro: "Synthcoder completes code, explains errors and writes tests inside the editors developers already use.",
    detail: "short",
    warrantyDays: [30, 365],
    options: [option("Individual Seat", 14, 899)],
  },
  {
    slug: "officely-suite",
    title: "Officely Suite",
    art: { motif: "office-documents", accent: "#fef3c7" },
    colour: "#ca8a04",
    categories: ["software", "productivity"],
    label: "Lifetime key",
    subtitle: "Documents, sheets and slides",
    intro: "Officely Suite is a complete office package: documents, spreadsheets, slides and 1 TB of cloud storage.",
    detail: "long",
    warrantyDays: [90, 365],
    options: [option("Personal Private", 30, 599), option("Family Semi Private", 9, 399)],
  },
  {
    slug: "cloudcrate",
    title: "Cloudcrate Storage 2 TB",
    art: { motif: "cloud-storage", accent: "#1e3a8a" },
    colour: "#eab308",
    categories: ["software"],
    label: "2 TB",
    subtitle: "Encrypted cloud storage",
    intro: "Cloudcrate keeps 2 TB of files encrypted and in sync on every device, with version history.",
    detail: "medium",
    warrantyDays: [30, 90, 365],
    options: [option("2 TB Private", 12, 499)],
  },
  {
    slug: "pdfsmith",
    title: "PDFsmith Pro",
    art: { motif: "signed-pdf", accent: "#f87171" },
    colour: "#a16207",
    categories: ["software"],
    label: "Editor",
    subtitle: "Edit, sign and convert PDFs",
    intro: "PDFsmith edits, signs, merges and converts PDF files on desktop and mobile.",
    detail: "short",
    warrantyDays: [30, 365],
    options: [option("Pro Private", 0, 699), option("Team Seat", 4, 999)],
  },
  {
    slug: "mailpost-pro",
    title: "Mailpost Pro",
    art: { motif: "envelope-at", accent: "#fcd34d" },
    colour: "#854d0e",
    categories: ["software", "productivity"],
    label: "Private inbox",
    subtitle: "A private inbox with custom domains",
    intro: "Mailpost Pro is an ad-free inbox with aliases, custom domains and end-to-end encryption.",
    detail: "medium",
    warrantyDays: [90],
    options: [option("Pro Private", 18, 399)],
  },
  {
    slug: "veilnet-vpn",
    title: "Veilnet VPN Private",
    art: { motif: "shield-globe", accent: "#a3e635" },
    colour: "#0891b2",
    categories: ["vpn-security"],
    label: "Best seller",
    subtitle: "Fast VPN with servers in 60 countries",
    intro:
      "Veilnet VPN hides your address behind servers in 60 countries, with a strict no-logs policy and unlimited bandwidth.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Private Account", 40, 299), option("Semi Private Account", 20, 149)],
  },
  {
    slug: "privora-vpn",
    title: "Privora VPN",
    art: { motif: "shield-play", accent: "#fde047" },
    colour: "#06b6d4",
    categories: ["vpn-security"],
    label: "Streaming ready",
    subtitle: "A VPN that works with streaming services",
    intro: "Privora VPN unblocks regional libraries and keeps your connection private on public Wi-Fi.",
    detail: "medium",
    warrantyDays: [30, 365],
    options: [option("Standard Private", 7, 349)],
  },
  {
    slug: "lockbox-passwords",
    title: "Lockbox Passwords",
    art: { motif: "padlock-password", accent: "#fbbf24" },
    colour: "#155e75",
    categories: ["vpn-security", "productivity"],
    label: "Password manager",
    subtitle: "Every password, synced and encrypted",
    intro: "Lockbox stores passwords, passkeys and notes, encrypted on your device and synced everywhere.",
    detail: "short",
    warrantyDays: [90, 365],
    options: [option("Premium Private", 23, 299), option("Families Semi Private", 0, 199)],
  },
  {
    slug: "guardlyn-antivirus",
    title: "Guardlyn Total Security",
    art: { motif: "shield-devices", accent: "#4ade80" },
    colour: "#164e63",
    categories: ["vpn-security", "software"],
    label: "5 devices",
    subtitle: "Antivirus for five devices",
    intro: "Guardlyn protects up to five computers and phones from malware, phishing and ransomware.",
    detail: "medium",
    warrantyDays: [365],
    options: [option("5 Devices", 16, 299)],
  },
  {
    slug: "lingoleap",
    title: "Lingoleap Super",
    art: { motif: "language-bubbles", accent: "#bfdbfe" },
    colour: "#f59e0b",
    categories: ["education"],
    label: "Languages",
    subtitle: "Learn a language without adverts",
    intro:
      "Lingoleap Super removes adverts and hearts, unlocks practice mode and tracks your progress in 40 languages.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Super Private", 28, 249), option("Family Semi Private", 6, 149)],
  },
  {
    slug: "studyhall-plus",
    title: "Studyhall Plus",
    art: { motif: "flashcards", accent: "#fef08a" },
    colour: "#d97706",
    categories: ["education"],
    label: "Homework help",
    subtitle: "Step-by-step answers and flashcards",
    intro: "Studyhall Plus explains textbook problems step by step and builds flashcards from your notes.",
    detail: "short",
    warrantyDays: [30],
    options: [option("Plus Private", 13, 399)],
  },
  {
    slug: "courseway-mentoring",
    title: "Courseway Mentor Session",
    art: { motif: "mentor-call", accent: "#93c5fd" },
    colour: "#b45309",
    categories: ["education"],
    label: "Manual delivery",
    subtitle: "A one-to-one session booked for you",
    intro: "A one-to-one online session with a Courseway mentor. We book it with you by email after payment.",
    detail: "long",
    warrantyDays: [30],
    options: [option("60 Minute Session", 0, 2499)],
    fulfilMode: "manual",
    maxQuantity: 3,
  },
  {
    slug: "mathmentor-pro",
    title: "MathMentor Pro",
    art: { motif: "graph-formula", accent: "#fbbf24" },
    colour: "#92400e",
    categories: ["education"],
    label: "Students",
    subtitle: "Solve, graph and practise",
    intro: "MathMentor Pro solves and graphs problems from algebra to calculus, with worked explanations.",
    detail: "medium",
    warrantyDays: [30, 90],
    options: [option("Pro Private", 5, 299)],
  },
  {
    slug: "skillforge-academy",
    title: "Skillforge Academy Semi Private",
    art: { motif: "cap-certificate", accent: "#fbbf24" },
    colour: "#78350f",
    categories: ["education", "productivity"],
    label: "Certificates",
    subtitle: "Courses with certificates",
    intro: "Thousands of video courses in business, technology and design, with certificates you can share.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Semi Private Seat", 19, 349)],
  },
  {
    slug: "vectra-studio",
    title: "Vectra Studio",
    art: { motif: "bezier-curve", accent: "#fde047" },
    colour: "#db2777",
    categories: ["design"],
    label: "Best seller",
    subtitle: "Vector design and illustration",
    intro: "Vectra Studio is a professional vector editor for illustration, logos and print, with cloud libraries.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("All Apps Private", 9, 1999), option("Single App Private", 24, 899)],
  },
  {
    slug: "palettely",
    title: "Palettely Pro",
    art: { motif: "palette-templates", accent: "#fef3c7" },
    colour: "#ec4899",
    categories: ["design"],
    label: "Templates",
    subtitle: "Design anything from templates",
    intro: "Palettely Pro gives every premium template, brand kits and one-click background removal.",
    detail: "medium",
    warrantyDays: [30, 365],
    options: [option("Pro Private", 33, 299), option("Teams Semi Private", 11, 199)],
  },
  {
    slug: "mockframe",
    title: "Mockframe",
    art: { motif: "wireframe-screens", accent: "#a78bfa" },
    colour: "#f472b6",
    categories: ["design"],
    label: "UI design",
    subtitle: "Interface design and prototypes",
    intro: "Mockframe designs and prototypes interfaces together with your team in the browser.",
    detail: "short",
    warrantyDays: [30, 90],
    options: [option("Professional Seat", 1, 1199)],
  },
  {
    slug: "fontcase",
    title: "Fontcase Library",
    art: { motif: "type-specimen", accent: "#f9a8d4" },
    colour: "#9d174d",
    categories: ["design"],
    label: "25,000 fonts",
    subtitle: "A licensed font library",
    intro: "Fontcase gives you 25,000 licensed fonts to sync to your computer and use in commercial work.",
    detail: "medium",
    warrantyDays: [90, 365],
    options: [option("Library Private", 0, 499)],
  },
  {
    slug: "stockshot-photos",
    title: "Stockshot Photos",
    art: { motif: "camera-photos", accent: "#fda4af" },
    colour: "#831843",
    categories: ["design"],
    label: "Bulk",
    subtitle: "Stock photo download credits",
    intro: "Stockshot download credits for royalty-free photos and videos. Sold in packs of at least two.",
    detail: "short",
    warrantyDays: [30],
    options: [option("Credit Pack", 36, 199)],
    minQuantity: 2,
    maxQuantity: 20,
  },
  {
    slug: "taskmint",
    title: "Taskmint Premium",
    art: { motif: "checklist-leaf", accent: "#a7f3d0" },
    colour: "#059669",
    categories: ["productivity"],
    label: "To-do",
    subtitle: "Tasks, reminders and habits",
    intro: "Taskmint Premium adds reminders by place, habit tracking and shared lists to a simple to-do app.",
    detail: "medium",
    warrantyDays: [30, 90, 365],
    options: [option("Premium Private", 20, 199)],
  },
  {
    slug: "focusflow",
    title: "Focusflow Semi Private",
    art: { motif: "focus-timer", accent: "#6ee7b7" },
    colour: "#047857",
    categories: ["productivity"],
    label: "Focus",
    subtitle: "Block distractions, track deep work",
    intro: "Focusflow blocks distracting sites on a schedule and shows how much deep work you really did.",
    detail: "short",
    warrantyDays: [30, 90],
    options: [option("Semi Private", 8, 149)],
  },
  {
    slug: "notaloom",
    title: "Notaloom Workspace",
    art: { motif: "notes-board", accent: "#fcd34d" },
    colour: "#065f46",
    categories: ["productivity", "software"],
    label: "Notes",
    subtitle: "Notes, wikis and projects in one place",
    intro: "Notaloom combines notes, wikis and project boards, with an assistant that answers from your pages.",
    detail: "long",
    warrantyDays: [30, 90, 365],
    options: [option("Plus Private", 17, 499), option("Business Semi Private", 4, 799)],
  },
];

const warrantyTitles: Record<number, string> = {
  7: "7 Days Warranty",
  30: "1 Month Warranty",
  90: "3 Months Warranty",
  180: "6 Months Warranty",
  365: "1 Year Warranty",
};

export function warrantyTitle(days: number): string {
  return warrantyTitles[days] ?? `${days} Days Warranty`;
}

/** Longer warranties cost less per month; prices end in .99 like a real price list. */
export function warrantyPriceCents(monthlyCents: number, days: number): number {
  if (days <= 30) return monthlyCents;
  const months = days / 30;
  const discount = days >= 365 ? 0.7 : days >= 90 ? 0.85 : 1;
  const raw = monthlyCents * months * discount;
  return Math.max(99, Math.round(raw / 100) * 100 - 1);
}

const categorySections: Record<string, string> = {
  streaming:
    "What you get\nA ready-to-use account with the plan named in the option. Sign in on your TV, phone, browser or console; downloads for offline viewing work on supported devices.",
  music:
    "What you get\nPremium listening on the plan you choose: no adverts, unlimited skips and offline downloads on your phone, desktop and smart speakers.",
  gaming:
    "What you get\nThe subscription is active on the account we deliver. Sign in on your console or PC client; your own saves stay in the cloud of that account.",
  "ai-tools":
    "What you get\nFull access to the paid plan named in the option, including its usage limits and newest models. Conversations and files stay on the account you sign in to.",
  software:
    "What you get\nA licensed account or seat for the edition named in the option, with updates for as long as the warranty runs.",
  "vpn-security":
    "What you get\nLogin details for the apps on Windows, macOS, Android, iOS and Linux. Use them on the number of devices the plan allows.",
  education:
    "What you get\nThe premium plan on the account we deliver, with your progress saved as you learn. Works in the browser and in the mobile apps.",
  design:
    "What you get\nA seat on the plan named in the option, with the cloud storage and libraries that come with it. Your files can be exported at any time.",
  productivity:
    "What you get\nThe premium plan on the account we deliver, synced across your devices, with every paid feature unlocked.",
};

const deliverySection =
  "How delivery works\nAutomatic orders are delivered the moment the payment is confirmed: the username and password appear on the order page and in the email we send. Check your spam folder if the email is late.";

const warrantySection =
  "Warranty and replacements\nIf the account stops working during the warranty, open the order and press Replace. A working replacement is usually delivered instantly; if it is not, our support team answers within 24 hours.";

const manualDeliverySection =
  "How delivery works\nThis product is delivered by our team, not automatically. After payment the order shows as being processed; we contact you by email, usually within a few hours and always within 24 hours.";

/** Sections separated by blank lines, the way the shop renders descriptions. */
export function demoDescription(product: DemoProduct): string {
  const sections = [product.intro];
  if (product.detail !== "short") sections.push(categorySections[product.categories[0]]);
  if (product.detail === "long") {
    sections.push(product.fulfilMode === "manual" ? manualDeliverySection : deliverySection, warrantySection);
  }
  return sections.join("\n\n");
}

export function demoDeliveryNotes(product: DemoProduct): string {
  if (product.fulfilMode === "manual") {
    return "Delivered by our team within 24 hours. Reply to our email or open a ticket with any details we need.";
  }
  return "Do not change the email, password or profile name of the account. Sign out of other devices only if support asks you to.";
}

export const demoFaqs = [
  {
    question: "How fast will I receive my order?",
    answer:
      "Most products are delivered automatically the moment your payment is confirmed. The login details appear on the order page and are emailed to you. Crypto payments can take a few minutes to confirm on the network.",
  },
  {
    question: "What does the warranty cover?",
    answer:
      "For the warranty period you choose, we guarantee the account works as described. If it stops working, request a replacement from the order page and we deliver a new one at no cost.",
  },
  {
    question: "How do I request a replacement?",
    answer:
      "Open your order (from the dashboard or Find Order), press Replace next to the credentials that stopped working and tell us what happens when you sign in. Most replacements are instant.",
  },
  {
    question: "Which payment methods do you accept?",
    answer:
      "We accept cryptocurrency (Bitcoin, Ethereum, Litecoin and more), PayPal, credit and debit cards, and your store balance if you have an account.",
  },
  {
    question: "Do I need an account to buy?",
    answer:
      "No. You can check out with just your email address; we create an account for you so you can find your orders later. You can set a password at any time with Forgot password.",
  },
  {
    question: "What is the difference between Private and Semi Private?",
    answer:
      "A Private product is used by you alone. A Semi Private product is a profile or seat on an account shared with a few other customers, which is why it costs less.",
  },
  {
    question: "I did not get the email. What should I do?",
    answer:
      "Check your spam or promotions folder first. You can always see your order on the Find Order page with your order id, or in your dashboard if you are signed in.",
  },
  {
    question: "How can I contact support?",
    answer:
      "Open a ticket from your dashboard, with your order id, and our team will reply within 24 hours, usually much sooner. You can also reach us on Discord or Telegram.",
  },
];

export const demoSocialLinks = [
  { slug: "discord", name: "Discord", link: "https://discord.example.com/store" },
  { slug: "telegram", name: "Telegram", link: "https://telegram.example.com/store" },
  { slug: "x", name: "X", link: "https://x.example.com/store" },
];

export const demoAnnouncement =
  "All our products are ethically sourced: every account is bought from its provider or an authorised reseller, never stolen or cracked.";

/** A coupon the README names, so a new user can try one at checkout: 10% off once per customer. */
export const demoCoupon = { code: "WELCOME10", kind: "percent", amount: 10, perCustomerLimit: 1 } as const;

export const demoPaymentGateways = [
  { name: "coinbase", label: "Crypto" },
  { name: "shoppy", label: "Paypal" },
  { name: "stripe", label: "Credit/Debit Card" },
  { name: "balance", label: "Balance" },
] as const;

export const demoDocuments = [
  {
    name: "terms-of-service",
    description: [
      "Terms of Service\n\nThese terms apply to every purchase from this store. By placing an order you confirm that you have read them and that you are old enough to enter a binding contract where you live.",
      "What we sell\nWe sell access to digital subscriptions and accounts, described on each product page together with the plan, the warranty and any limits on use. Private products are for one customer; Semi Private products are shared with a small number of other customers.",
      "Payment and delivery\nPrices are in US dollars and include every fee we charge. Automatic products are delivered as soon as the payment is confirmed; products marked for manual delivery are delivered by our team within 24 hours. An unpaid order expires and the stock it held is released.",
      "Warranty and replacements\nDuring the warranty period you chose, we replace any account that stops working for reasons you did not cause. Changing the email, the password or the profile of a delivered account, or sharing it beyond the plan, ends the warranty for that account.",
      "Refunds\nBecause digital goods cannot be returned, we offer replacements rather than refunds. If we cannot deliver or replace a product, we refund the price to your store balance or, on request, to the original payment method.",
      "Acceptable use\nYou agree not to resell, publish or misuse the credentials we deliver, and to follow the rules of the service they belong to. We may refuse orders or close accounts involved in fraud, chargebacks made in bad faith or abuse of our support team.",
      "Changes\nWe may update these terms; the version published on this page when you place an order applies to that order. Questions about these terms can be sent through a support ticket.",
    ].join("\n\n"),
  },
  {
    name: "privacy-policy",
    description: [
      "Privacy Policy\n\nThis policy explains which personal data the store keeps, why, and what you can ask us to do with it.",
      "What we collect\nYour email address and username, your orders, your tickets and messages to us, your balance history and, for security, the network address a request came from. Passwords are stored only as salted hashes.",
      "Why we collect it\nTo deliver your orders, to let you find them again, to answer support requests, to prevent fraud and abuse, and to meet our legal and accounting duties. We do not sell your data and we do not use it for advertising.",
      "Payments\nPayments are handled by the payment provider you choose. We never see or store your card number; we keep only the amount, the status and the provider's reference for each payment.",
      "Cookies\nWe use a small number of cookies that the store needs to work: your sign-in session, your cart and your preferences. We use no tracking or advertising cookies.",
    ].join("\n\n"),
  },
];
