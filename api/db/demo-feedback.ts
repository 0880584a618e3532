/*
 * Demo customers and what they said about their purchases: enough feedback on several products to page
 * through /feedback (12 a page) and to give the shop's product modal a rating. Plain data; seed-feedback.ts
 * turns it into accounts (that cannot sign in), paid and delivered orders, and feedback rows.
 */

export type DemoReview = {
  /** A product of demo-data.ts and the index of its option. */
  product: string;
  option: number;
  stars: 1 | 2 | 3 | 4 | 5;
  message: string;
  daysAgo: number;
};

export const demoCustomers = [
  "maya.r",
  "tobias.k",
  "lena.m",
  "arjun.p",
  "sofia.g",
  "daniel.w",
  "noor.h",
  "lucas.b",
  "emma.t",
  "kenji.s",
];

export const demoReviews: DemoReview[] = [
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 1,
    message: "Delivered in seconds and the profile works on my TV in 4K.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 2,
    message: "Second time buying here. Smooth as always.",
  },
  {
    product: "streamora-premium-private",
    option: 1,
    stars: 4,
    daysAgo: 3,
    message: "All four screens work. Took me a minute to find the right profile.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 5,
    message: "Great price for a private profile, nobody else touches my watch list.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 3,
    daysAgo: 6,
    message: "Worked fine, but the login asked for a code once. Support sorted it out within the hour.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 8,
    message: "Instant delivery, exactly as described.",
  },
  {
    product: "streamora-premium-private",
    option: 1,
    stars: 5,
    daysAgo: 9,
    message: "The whole family uses it. Worth every cent.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 4,
    daysAgo: 11,
    message: "Good value. The replacement after a password change was automatic.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 13,
    message: "Three months in and still working perfectly.",
  },
  { product: "streamora-premium-private", option: 0, stars: 5, daysAgo: 15, message: "Fast, cheap, no problems." },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 4,
    daysAgo: 18,
    message: "HDR works on my phone too. Happy with it.",
  },
  {
    product: "streamora-premium-private",
    option: 1,
    stars: 5,
    daysAgo: 21,
    message: "Bought the 365 day warranty and never needed it. Still glad I had it.",
  },
  {
    product: "streamora-premium-private",
    option: 0,
    stars: 5,
    daysAgo: 24,
    message: "Clear instructions in the delivery notes. Logged in first try.",
  },
  { product: "streamora-premium-private", option: 0, stars: 4, daysAgo: 27, message: "Does what it says." },
  {
    product: "tunewave-premium",
    option: 0,
    stars: 5,
    daysAgo: 2,
    message: "Offline downloads work and no ads. Perfect for my commute.",
  },
  {
    product: "tunewave-premium",
    option: 1,
    stars: 5,
    daysAgo: 4,
    message: "Duo plan for me and my partner, both accounts worked at once.",
  },
  {
    product: "tunewave-premium",
    option: 0,
    stars: 4,
    daysAgo: 10,
    message: "Good, though my old playlists had to be imported by hand.",
  },
  { product: "tunewave-premium", option: 2, stars: 4, daysAgo: 16, message: "Family plan invite arrived quickly." },
  { product: "veilnet-vpn", option: 0, stars: 5, daysAgo: 3, message: "Fast servers, works on all my devices." },
  {
    product: "veilnet-vpn",
    option: 1,
    stars: 3,
    daysAgo: 7,
    message: "Works, but the shared account logs me out now and then.",
  },
  {
    product: "veilnet-vpn",
    option: 0,
    stars: 5,
    daysAgo: 12,
    message: "Set up in two minutes. Great support when I asked about the router app.",
  },
  {
    product: "cognita-ai",
    option: 0,
    stars: 5,
    daysAgo: 1,
    message: "The Plus features are all there. Saves me hours every week.",
  },
  {
    product: "cognita-ai",
    option: 1,
    stars: 4,
    daysAgo: 6,
    message: "Semi private is fine for my use, sometimes the history shows other chats.",
  },
  { product: "cognita-ai", option: 0, stars: 5, daysAgo: 14, message: "Delivered instantly at 3 am. Impressive." },
  {
    product: "pixelforge-pass",
    option: 0,
    stars: 5,
    daysAgo: 4,
    message: "Huge game library for the price. Cloud saves work.",
  },
  {
    product: "pixelforge-pass",
    option: 1,
    stars: 4,
    daysAgo: 9,
    message: "PC games download fast. One title needed a replacement account, done in minutes.",
  },
  {
    product: "pixelforge-pass",
    option: 2,
    stars: 2,
    daysAgo: 20,
    message: "Core plan was not what I expected; read the option details first.",
  },
  { product: "lingoleap", option: 0, stars: 5, daysAgo: 5, message: "No hearts limit any more. My streak thanks you." },
  {
    product: "lingoleap",
    option: 0,
    stars: 4,
    daysAgo: 17,
    message: "Works well, wish the warranty was longer by default.",
  },
  { product: "lingoleap", option: 1, stars: 5, daysAgo: 25, message: "Whole family learning Spanish on one plan." },
];

/**
 * Redeem keys with known codes, so a new user can try /redeem-key (the README names the first). Each pays for
 * one account of the plan's first warranty duration.
 */
export const demoKeys = [
  { code: "DEMO1-VPN00-KEY00-00001", product: "veilnet-vpn", option: 0 },
  { code: "DEMO2-VPN00-KEY00-00002", product: "veilnet-vpn", option: 0 },
  { code: "DEMO3-STRM0-KEY00-00003", product: "streamora-premium-private", option: 0 },
  { code: "DEMO4-STRM0-KEY00-00004", product: "streamora-premium-private", option: 0 },
  { code: "DEMO5-CGNT0-KEY00-00005", product: "cognita-ai", option: 0 },
  { code: "DEMO6-VPN00-KEY00-00006", product: "veilnet-vpn", option: 0 },
  { code: "DEMO7-VPN00-KEY00-00007", product: "veilnet-vpn", option: 0 },
  { code: "DEMO8-STRM0-KEY00-00008", product: "streamora-premium-private", option: 0 },
  { code: "DEMO9-STRM0-KEY00-00009", product: "streamora-premium-private", option: 0 },
  { code: "DEMOA-CGNT0-KEY00-00010", product: "cognita-ai", option: 0 },
];
