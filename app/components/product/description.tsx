/* The product page's description, and the title cleaned of what suppliers append. */

/** The title without the bracketed notes and '| ...' suffixes that suppliers append. */
export function cleanProductTitle(title: string): string {
  const cleaned = title
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\s+\|.*$/, " ")
    .replace(/\s{2,}/g, " ")
    .trim();
  return cleaned || title.trim();
}

/** Longer descriptions get smaller text so the options stay in view (thresholds 200 and 500). */
export function descriptionDensity(description: string): "compact" | "medium" | "normal" {
  if (description.length > 500) return "compact";
  if (description.length >= 200) return "medium";
  return "normal";
}

// Body text stays at 14 px or more, however long the description (issue 26).
const densityClass = { compact: "text-sm", medium: "text-[0.9375rem]", normal: "text-base" };

export function Description({ text }: { text: string }) {
  const sections = text
    .split(/\n\s*\n/)
    .map((section) => section.trim())
    .filter(Boolean);
  if (sections.length === 0) return null;
  return (
    <div
      data-density={descriptionDensity(text)}
      className={`flex flex-col gap-2 text-slate-700 ${densityClass[descriptionDensity(text)]}`}
    >
      {sections.map((section, index) => (
        <p key={index} className="whitespace-pre-line">
          {section}
        </p>
      ))}
    </div>
  );
}
