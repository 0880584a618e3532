import { STAR_VALUES } from "../../../contract/browser/feedback";

/** A rating as five stars, read out as "4 out of 5 stars". */
export function StarsShown({ stars, className = "text-lg" }: { stars: number; className?: string }) {
  return (
    <span role="img" aria-label={`${stars} out of 5 stars`} className={`whitespace-nowrap ${className}`}>
      {STAR_VALUES.map((value) => (
        <span key={value} aria-hidden="true" className={value <= stars ? "text-amber-500" : "text-slate-300"}>
          ★
        </span>
      ))}
    </span>
  );
}
